// One node: its fields, ports, driver interfaces, history and inventory; the state machine with the
// verbs the current state allows, each confirmed first; power and maintenance; the serial console.
import { html, useEffect, useState } from '../preact.js';
import { enc, stateMachine, v1, v1Delete, v1Put } from '../api.js';
import { ensureLoaded, historyEventsOf, mergeNode, store } from '../store.js';
import { ConfirmDialog } from './confirm.js';
import { Console } from './console.js';
import { MaintenanceBadge, PowerBadge, StateBadge } from './badges.js';
import { useStoreVersion } from './node-list.js';
import { eventsFrom, StateMachine } from './state-machine.js';

/** The provision verbs offered, by API target; each is shown when the machine allows its event. */
const PROVISION_ACTIONS = [
  { target: 'manage', label: 'Manage' },
  { target: 'provide', label: 'Provide' },
  { target: 'inspect', label: 'Inspect' },
  { target: 'active', label: 'Deploy' },
  { target: 'clean', label: 'Clean', inputs: [{ name: 'clean_steps', label: 'Clean steps (JSON list)', type: 'textarea',
    value: '[{"interface": "deploy", "step": "erase_devices_metadata"}]' }] },
  { target: 'rescue', label: 'Rescue', inputs: [{ name: 'rescue_password', label: 'Rescue password', type: 'password' }] },
  { target: 'unrescue', label: 'Unrescue' },
  { target: 'deleted', label: 'Undeploy' },
  { target: 'abort', label: 'Abort' },
];

let machinePromise = null;
const loadMachine = () => (machinePromise ??= stateMachine().catch((e) => { machinePromise = null; throw e; }));

function provisionBody(action, values) {
  const body = { target: action.target };
  if (action.target === 'clean') body.clean_steps = JSON.parse(values.clean_steps || '[]');
  if (action.target === 'rescue') body.rescue_password = values.rescue_password;
  return body;
}

function powerActions(node) {
  const on = node.power_state === 'power on';
  return [
    { target: 'power on', label: 'Power on', enabled: !on },
    { target: 'power off', label: 'Power off', enabled: node.power_state !== 'power off' },
    { target: 'rebooting', label: 'Reboot', enabled: on },
  ];
}

function Actions({ node, machine, ask, refresh }) {
  const id = enc(node.uuid);
  const events = machine ? eventsFrom(machine, node.provision_state) : new Set();
  const allowed = PROVISION_ACTIONS.filter((a) => machine && events.has(machine.verbs[a.target]));
  const confirmThen = (title, inputs, run) => ask({
    title, inputs, message: `${title} on node ${node.name ?? node.uuid}?`,
    run: async (values) => { await run(values); refresh(); },
  });
  return html`<div class="actions">
    <div class="group"><span class="label">Provision</span>
      ${allowed.length === 0 ? html`<span class="muted">no verb from this state</span>` : null}
      ${allowed.map((a) => html`<button data-action=${a.target} onClick=${() => confirmThen(a.label, a.inputs,
        (values) => v1Put(`nodes/${id}/states/provision`, provisionBody(a, values)))}>${a.label}</button>`)}
    </div>
    <div class="group"><span class="label">Power</span>
      ${powerActions(node).map((p) => html`<button data-action=${p.target} disabled=${!p.enabled}
        onClick=${() => confirmThen(p.label, [], () => v1Put(`nodes/${id}/states/power`, { target: p.target }))}>${p.label}</button>`)}
    </div>
    <div class="group"><span class="label">Maintenance</span>
      ${node.maintenance
        ? html`<button data-action="maintenance-unset" onClick=${() => confirmThen('Unset maintenance', [],
            () => v1Delete(`nodes/${id}/maintenance`))}>Unset</button>`
        : html`<button data-action="maintenance-set" onClick=${() => confirmThen('Set maintenance',
            [{ name: 'reason', label: 'Reason' }], (v) => v1Put(`nodes/${id}/maintenance`, v.reason ? { reason: v.reason } : {}))}>Set</button>`}
    </div>
  </div>`;
}

function Value({ value }) {
  if (value === null || value === undefined) return html`<span class="muted">null</span>`;
  if (typeof value === 'object') return html`<pre class="json">${JSON.stringify(value, null, 2)}</pre>`;
  return html`<span>${String(value)}</span>`;
}

function Fields({ node }) {
  return html`<dl class="fields">${Object.keys(node).filter((k) => k !== 'links' && k !== 'ports' && k !== 'portgroups'
      && k !== 'states' && k !== 'volume').sort().map((k) => html`<dt>${k}</dt><dd><${Value} value=${node[k]} /></dd>`)}</dl>`;
}

function Ports({ ports }) {
  if (!ports) return html`<p class="muted">loading…</p>`;
  if (ports.length === 0) return html`<p class="muted">No ports.</p>`;
  return html`<table class="grid"><thead><tr><th>UUID</th><th>Address</th><th>PXE</th><th>Physical network</th><th>Local link</th></tr></thead>
    <tbody>${ports.map((p) => html`<tr><td class="mono">${p.uuid}</td><td class="mono">${p.address}</td>
      <td>${String(p.pxe_enabled)}</td><td>${p.physical_network ?? ''}</td>
      <td>${p.local_link_connection ? JSON.stringify(p.local_link_connection) : ''}</td></tr>`)}</tbody></table>`;
}

function Interfaces({ node, validation }) {
  const names = Object.keys(node).filter((k) => k.endsWith('_interface')).sort();
  return html`<table class="grid interfaces"><thead><tr><th>Interface</th><th>Implementation</th><th>Valid</th><th>Reason</th></tr></thead>
    <tbody>${names.map((k) => {
      const kind = k.slice(0, -'_interface'.length);
      const v = validation?.[kind];
      return html`<tr><td>${kind}</td><td>${node[k] ?? ''}</td>
        <td>${v ? html`<span class=${`badge ${v.result ? 'ok' : v.result === false ? 'bad' : 'muted'}`}>${String(v.result)}</span>` : ''}</td>
        <td>${v?.reason ?? ''}</td></tr>`;
    })}</tbody></table>`;
}

function History({ history }) {
  if (!history) return html`<p class="muted">loading…</p>`;
  if (history.length === 0) return html`<p class="muted">No history.</p>`;
  return html`<table class="grid history"><thead><tr><th>When</th><th>Severity</th><th>Type</th><th>Event</th><th>User</th></tr></thead>
    <tbody>${[...history].reverse().map((h) => html`<tr class=${/error/i.test(h.severity ?? '') ? 'bad' : ''}>
      <td>${h.created_at}</td><td>${h.severity}</td><td>${h.event_type}</td><td>${h.event}</td><td>${h.user ?? ''}</td></tr>`)}</tbody></table>`;
}

function Inventory({ inventory }) {
  if (inventory === undefined) return html`<p class="muted">loading…</p>`;
  if (inventory === null) return html`<p class="muted">No inventory recorded.</p>`;
  return html`<pre class="json">${JSON.stringify(inventory, null, 2)}</pre>`;
}

/** Fetches everything the page shows; parts that fail show their own message. */
function useNodeDetails(uuid, version) {
  const [data, setData] = useState({ node: null, error: null });
  const [tick, setTick] = useState(0);
  const id = enc(uuid);
  useEffect(() => {
    let live = true;
    const set = (part) => live && setData((d) => ({ ...d, ...part }));
    v1(`nodes/${id}`).then((node) => { set({ node, error: null }); mergeNode(node); }, (e) => set({ error: e.message }));
    v1(`nodes/${id}/ports?detail=true`).then((r) => set({ ports: r.ports }), () => set({ ports: [] }));
    v1(`nodes/${id}/validate`).then((validation) => set({ validation }), () => set({ validation: null }));
    v1(`nodes/${id}/history`).then((r) => set({ history: r.history }), () => set({ history: [] }));
    v1(`nodes/${id}/inventory`).then((inventory) => set({ inventory }), () => set({ inventory: null }));
    return () => { live = false; };
  }, [uuid, tick, version]);
  return [data, () => setTick((t) => t + 1)];
}

export function NodePage({ uuid }) {
  useStoreVersion();
  useEffect(() => { ensureLoaded().catch(() => {}); }, []);
  const [machine, setMachine] = useState(null);
  const [machineError, setMachineError] = useState(null);
  const [request, setRequest] = useState(null);
  useEffect(() => { loadMachine().then(setMachine, (e) => setMachineError(e.message)); }, []);
  const live = store.nodes.get(uuid);
  // The full node is fetched again when the stream reports a change of its state, power or history.
  const liveKey = live ? `${live.provision_state}|${live.power_state}|${live.maintenance}|${live.last_error}|${
    historyEventsOf(uuid)}` : '';
  const [data, refresh] = useNodeDetails(uuid, liveKey);
  if (data.error) return html`<section class="node-page"><p class="error">${data.error}</p></section>`;
  if (!data.node) return html`<section class="node-page"><p class="muted">Loading…</p></section>`;
  const node = { ...data.node, ...(live ?? {}) };
  return html`<section class="node-page">
    <header class="node-head">
      <h2 class="node-name">${node.name ?? node.uuid}</h2>
      <span class="mono">${node.uuid}</span>
      <${StateBadge} state=${node.provision_state} target=${node.target_provision_state} />
      <${PowerBadge} power=${node.power_state} target=${node.target_power_state} />
      <${MaintenanceBadge} on=${node.maintenance} reason=${node.maintenance_reason} />
    </header>
    ${node.last_error ? html`<p class="error last-error">${node.last_error}</p>` : null}
    <${Actions} node=${node} machine=${machine} ask=${setRequest} refresh=${refresh} />
    <h3>Provision state machine</h3>
    ${machineError ? html`<p class="error">${machineError}</p>` : null}
    <div class="fsm-box">${machine ? html`<${StateMachine} machine=${machine} current=${node.provision_state}
      target=${node.target_provision_state} />` : null}</div>
    <h3>Serial console</h3>
    <${Console} node=${node} ask=${setRequest} refresh=${refresh} />
    <h3>Driver interfaces</h3>
    <${Interfaces} node=${node} validation=${data.validation} />
    <h3>Ports</h3>
    <${Ports} ports=${data.ports} />
    <h3>History</h3>
    <${History} history=${data.history} />
    <h3>Inventory</h3>
    <${Inventory} inventory=${data.inventory} />
    <h3>Fields</h3>
    <${Fields} node=${data.node} />
    <${ConfirmDialog} request=${request} onClose=${() => setRequest(null)} />
  </section>`;
}
