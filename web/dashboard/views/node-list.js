// The node list: filters over the whole fleet in the browser's store, and a virtualised list that
// renders only the rows in view, so 10,000 nodes cost as much as the forty on screen.
import { html, useEffect, useMemo, useRef, useState } from '../preact.js';
import { ensureLoaded, stats, store, subscribe } from '../store.js';
import { MaintenanceBadge, PowerBadge, StateBadge } from './badges.js';

const ROW_HEIGHT = 34;
const OVERSCAN = 8;

const EMPTY_FILTERS = { search: '', state: '', power: '', maintenance: '', driver: '', owner: '', errors: false };

/** Re-renders the caller whenever the store applies a batch (at most once per animation frame). */
export function useStoreVersion() {
  const [version, setVersion] = useState(store.version);
  useEffect(() => subscribe(setVersion), []);
  return version;
}

function matches(node, f, search) {
  if (f.state && node.provision_state !== f.state) return false;
  if (f.power && (node.power_state ?? 'none') !== f.power) return false;
  if (f.maintenance && String(Boolean(node.maintenance)) !== f.maintenance) return false;
  if (f.driver && node.driver !== f.driver) return false;
  if (f.owner && !String(node.owner ?? '').toLowerCase().includes(f.owner.toLowerCase())) return false;
  if (f.errors && !node.last_error) return false;
  if (search && !String(node.name ?? '').toLowerCase().includes(search) && !node.uuid.includes(search)) return false;
  return true;
}

function distinct(values) {
  return [...new Set(values.filter((v) => v !== null && v !== undefined && v !== ''))].sort();
}

function Select({ label, name, value, options, onChange, any = 'any' }) {
  return html`<label>${label}
    <select name=${name} value=${value} onChange=${(e) => onChange(name, e.currentTarget.value)}>
      <option value="">${any}</option>
      ${options.map((o) => html`<option value=${o}>${o}</option>`)}
    </select></label>`;
}

function Filters({ filters, onChange, version }) {
  const [states, drivers] = useMemo(() => {
    const all = [...store.nodes.values()];
    return [distinct(all.map((n) => n.provision_state)), distinct(all.map((n) => n.driver))];
  }, [version]);
  return html`<form class="filters" onSubmit=${(e) => e.preventDefault()}>
    <label>Search <input type="search" name="search" placeholder="name or UUID" value=${filters.search}
      onInput=${(e) => onChange('search', e.currentTarget.value)} /></label>
    <${Select} label="State" name="state" value=${filters.state} options=${states} onChange=${onChange} />
    <${Select} label="Power" name="power" value=${filters.power} options=${['power on', 'power off', 'none']} onChange=${onChange} />
    <${Select} label="Maintenance" name="maintenance" value=${filters.maintenance} options=${['true', 'false']} onChange=${onChange} />
    <${Select} label="Driver" name="driver" value=${filters.driver} options=${drivers} onChange=${onChange} />
    <label>Owner <input name="owner" value=${filters.owner} onInput=${(e) => onChange('owner', e.currentTarget.value)} /></label>
    <label class="check"><input type="checkbox" name="errors" checked=${filters.errors}
      onChange=${(e) => onChange('errors', e.currentTarget.checked)} /> with last_error</label>
  </form>`;
}

function Row({ node, index }) {
  return html`<div class="row" role="row" data-uuid=${node.uuid} style=${{ transform: `translateY(${index * ROW_HEIGHT}px)` }}>
    <span class="c-name"><a href=${`#/nodes/${encodeURIComponent(node.uuid)}`}>${node.name ?? node.uuid}</a></span>
    <span class="c-uuid mono">${node.uuid}</span>
    <span class="c-state"><${StateBadge} state=${node.provision_state} target=${node.target_provision_state} /></span>
    <span class="c-power"><${PowerBadge} power=${node.power_state} target=${node.target_power_state} /></span>
    <span class="c-maint"><${MaintenanceBadge} on=${node.maintenance} reason=${node.maintenance_reason} /></span>
    <span class="c-driver">${node.driver}</span>
    <span class="c-owner">${node.owner ?? ''}</span>
    <span class="c-error" title=${node.last_error ?? ''}>${node.last_error ?? ''}</span>
  </div>`;
}

function VirtualRows({ rows }) {
  const box = useRef(null);
  const [scroll, setScroll] = useState({ top: 0, height: 800 });
  useEffect(() => {
    const el = box.current;
    let frame = 0;
    const measure = () => { frame = 0; setScroll({ top: el.scrollTop, height: el.clientHeight }); };
    const onScroll = () => { if (frame === 0) frame = requestAnimationFrame(measure); };
    el.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onScroll);
    measure();
    return () => { el.removeEventListener('scroll', onScroll); window.removeEventListener('resize', onScroll); };
  }, []);
  const first = Math.max(0, Math.floor(scroll.top / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scroll.top + scroll.height) / ROW_HEIGHT) + OVERSCAN);
  const visible = rows.slice(first, last);
  return html`<div class="rows" ref=${box} role="rowgroup">
    <div class="spacer" style=${{ height: `${rows.length * ROW_HEIGHT}px` }}>
      ${visible.map((node, i) => html`<${Row} key=${node.uuid} node=${node} index=${first + i} />`)}
    </div>
  </div>`;
}

export function NodeList() {
  const version = useStoreVersion();
  const [filters, setFilters] = useState(EMPTY_FILTERS);
  const [error, setError] = useState(null);
  useEffect(() => { ensureLoaded().catch((e) => setError(e.message)); }, []);
  const onChange = (name, value) => setFilters((f) => ({ ...f, [name]: value }));
  const search = filters.search.trim().toLowerCase();
  const rows = useMemo(() => [...store.nodes.values()].filter((n) => matches(n, filters, search)),
    [version, filters]);
  stats.listRenders++;
  useEffect(() => {
    if (stats.firstPaintAt === 0 && rows.length > 0) requestAnimationFrame(() => { stats.firstPaintAt = performance.now(); });
  });
  return html`<section class="node-list">
    <${Filters} filters=${filters} onChange=${onChange} version=${version} />
    <p class="summary" aria-live="polite"><span class="count">${rows.length}</span> of ${store.nodes.size} nodes${
      store.loaded ? '' : ' (loading…)'}</p>
    ${error ? html`<p class="error">${error}</p>` : null}
    <div class="table" role="table">
      <div class="row head" role="row">
        <span class="c-name">Name</span><span class="c-uuid">UUID</span><span class="c-state">Provision state</span>
        <span class="c-power">Power</span><span class="c-maint">Maint.</span><span class="c-driver">Driver</span>
        <span class="c-owner">Owner</span><span class="c-error">Last error</span>
      </div>
      <${VirtualRows} rows=${rows} />
    </div>
  </section>`;
}
