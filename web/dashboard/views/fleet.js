// The fleet at a glance: nodes by provision state, power and maintenance (from the live store),
// conductors and the hardware types they serve, and the failures of the last hour.
import { html, useEffect, useState } from '../preact.js';
import { v1 } from '../api.js';
import { ensureLoaded, store } from '../store.js';
import { StateBadge } from './badges.js';
import { useStoreVersion } from './node-list.js';

const HOUR_MS = 3600 * 1000;
const MAX_HISTORY_FETCHES = 50;

function countBy(nodes, key) {
  const counts = new Map();
  for (const n of nodes) {
    const k = key(n);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]);
}

function recent(ts, now) {
  const t = Date.parse(ts && !/Z|[+-]\d\d:?\d\d$/.test(ts) ? `${ts}Z` : ts);
  return Number.isFinite(t) && now - t <= HOUR_MS;
}

function Counts({ title, rows, badge }) {
  return html`<div class="card"><h3>${title}</h3><table class="grid counts"><tbody>
    ${rows.map(([k, n]) => html`<tr><td>${badge ? html`<${StateBadge} state=${k} />` : String(k)}</td><td class="num" data-count=${k}>${n}</td></tr>`)}
  </tbody></table></div>`;
}

function Conductors({ conductors, drivers }) {
  if (!conductors) return html`<p class="muted">loading…</p>`;
  return html`<table class="grid"><thead><tr><th>Conductor</th><th>Group</th><th>Alive</th><th>Hardware types</th></tr></thead>
    <tbody>${conductors.map((c) => html`<tr><td>${c.hostname}</td><td>${c.conductor_group || ''}</td>
      <td>${String(c.alive)}</td><td>${(c.drivers ?? drivers.filter((d) => d.hosts.includes(c.hostname)).map((d) => d.name)).join(', ')}</td></tr>`)}</tbody></table>`;
}

/** The nodes that look failed now (last_error, a failed state), at most 50, most recent stream first. */
function failingNodes(nodes) {
  return nodes.filter((n) => n.last_error || /fail|^error$/.test(n.provision_state ?? '')).slice(0, MAX_HISTORY_FETCHES);
}

/**
 * Failures of the last hour: the history events of severity ERROR (GET /v1/nodes/{n}/history) of
 * the nodes that show an error now, and those the event stream brought since the page opened.
 */
function useRecentFailures(nodes) {
  const [fetched, setFetched] = useState([]);
  const key = failingNodes(nodes).map((n) => `${n.uuid}:${n.last_error ?? ''}:${n.provision_state}`).join('|');
  useEffect(() => {
    let live = true;
    const candidates = failingNodes(nodes);
    Promise.all(candidates.map((n) => v1(`nodes/${encodeURIComponent(n.uuid)}/history`)
      .then((r) => (r.history ?? []).map((h) => ({ node: n, history: h })), () => [])))
      .then((lists) => live && setFetched(lists.flat()));
    return () => { live = false; };
  }, [key]);
  const now = Date.now();
  const seen = new Set();
  return [...fetched, ...store.historyErrors]
    .filter((e) => /error/i.test(e.history.severity ?? '') && recent(e.history.created_at, now))
    .filter((e) => {
      const id = `${e.node.uuid}|${e.history.uuid ?? e.history.created_at}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    })
    .sort((a, b) => String(b.history.created_at).localeCompare(String(a.history.created_at)));
}

export function Fleet() {
  const version = useStoreVersion();
  const [conductors, setConductors] = useState(null);
  const [drivers, setDrivers] = useState([]);
  const [error, setError] = useState(null);
  useEffect(() => {
    ensureLoaded().catch((e) => setError(e.message));
    v1('conductors?detail=true').then((r) => setConductors(r.conductors), (e) => { setConductors([]); setError(e.message); });
    v1('drivers').then((r) => setDrivers(r.drivers), () => {});
  }, []);
  const nodes = [...store.nodes.values()];
  const failures = useRecentFailures(nodes);
  return html`<section class="fleet" data-version=${version}>
    ${error ? html`<p class="error">${error}</p>` : null}
    <div class="cards">
      <${Counts} title=${`Provision state (${nodes.length} nodes)`} rows=${countBy(nodes, (n) => n.provision_state)} badge=${true} />
      <${Counts} title="Power" rows=${countBy(nodes, (n) => n.power_state ?? 'none')} />
      <${Counts} title="Maintenance" rows=${countBy(nodes, (n) => (n.maintenance ? 'in maintenance' : 'in service'))} />
    </div>
    <h3>Conductors</h3>
    <${Conductors} conductors=${conductors} drivers=${drivers} />
    <h3>Hardware types</h3>
    <table class="grid"><thead><tr><th>Hardware type</th><th>Conductors</th></tr></thead>
      <tbody>${drivers.map((d) => html`<tr><td>${d.name}</td><td>${d.hosts.join(', ')}</td></tr>`)}</tbody></table>
    <h3>Failures in the last hour (<span class="failure-count">${failures.length}</span>)</h3>
    <table class="grid failures"><thead><tr><th>Node</th><th>State now</th><th>When</th><th>Event</th></tr></thead><tbody>
      ${failures.map((e) => html`<tr><td><a href=${`#/nodes/${encodeURIComponent(e.node.uuid)}`}>${e.node.name ?? e.node.uuid}</a></td>
        <td><${StateBadge} state=${(store.nodes.get(e.node.uuid) ?? e.node).provision_state} /></td>
        <td>${e.history.created_at}</td><td>${e.history.event}</td></tr>`)}
    </tbody></table>
  </section>`;
}
