// The fleet as the browser knows it: every node's summary, loaded page by page, kept current by
// the event stream. Events are coalesced: they land in `pending` and are applied once per
// animation frame, so a burst of thousands of changes costs one re-render per frame.
import { pageThrough } from './api.js';

export const LIST_FIELDS = [
  'uuid', 'name', 'provision_state', 'target_provision_state', 'power_state', 'target_power_state',
  'maintenance', 'maintenance_reason', 'last_error', 'driver', 'owner', 'lessee', 'conductor_group',
  'resource_class',
];

/** Counters the browser tests and the benchmark read (window.__dashboard). */
export const stats = {
  events: 0, batches: 0, appliedNodes: 0, listRenders: 0,
  firstEventAt: 0, lastEventAt: 0, lastBatchAt: 0, firstPaintAt: 0, loadedAt: 0,
  streamOpen: false, reconnects: 0,
};
globalThis.__dashboard = stats;
/** How many nodes of the store have `field` equal to `value` (for the benchmark's settle check). */
stats.count = (field, value) => {
  let n = 0;
  for (const node of nodes.values()) if (node[field] === value) n++;
  return n;
};

const nodes = new Map();
const pending = new Map();
const listeners = new Set();
const historyErrors = [];
/** History events seen per node, so a node's page knows to read its history again. */
const historySeen = new Map();
let version = 0;
let frame = 0;
let loading = null;
let source = null;
/** During a resync, the nodes the stream changed since it began. */
let touchedSince = null;

export const store = {
  get version() { return version; },
  get nodes() { return nodes; },
  get loaded() { return stats.loadedAt > 0; },
  /** History events of severity ERROR seen on the stream (for the fleet view). */
  get historyErrors() { return historyErrors; },
};

export function historyEventsOf(uuid) {
  return historySeen.get(uuid) ?? 0;
}

export function subscribe(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function notify() {
  version++;
  for (const fn of listeners) fn(version);
}

/** Loads the whole list once (first page small, for a quick first paint), then follows the stream. */
export function ensureLoaded() {
  if (loading) return loading;
  connectStream();
  loading = readList((page) => {
    for (const node of page) if (!pending.has(node.uuid)) nodes.set(node.uuid, node);
    notify();
  }).then(() => { stats.loadedAt = performance.now(); notify(); });
  loading.catch(() => { loading = null; });
  return loading;
}

const readList = (onPage) => pageThrough('nodes', { fields: LIST_FIELDS.join(',') }, [200, 1000], onPage);

/** Reads the whole list into a fresh copy and swaps it in (events arriving meanwhile still apply). */
function resync() {
  const fresh = new Map();
  const touched = new Set();
  touchedSince = touched;
  readList((page) => { for (const node of page) fresh.set(node.uuid, node); }).then(() => {
    // What the stream brought during the read is newer than the read.
    for (const uuid of touched) {
      if (nodes.has(uuid)) fresh.set(uuid, nodes.get(uuid));
      else fresh.delete(uuid);
    }
    nodes.clear();
    for (const [uuid, node] of fresh) nodes.set(uuid, node);
    notify();
  }, () => {}).finally(() => { if (touchedSince === touched) touchedSince = null; });
}

function connectStream() {
  if (source) return;
  source = new EventSource('/dashboard/api/events/nodes');
  let gap = false;
  source.addEventListener('open', () => {
    stats.streamOpen = true;
    // Events sent while the stream was down are lost: read the list again.
    if (gap) { gap = false; stats.reconnects++; resync(); }
  });
  source.addEventListener('error', () => { stats.streamOpen = false; gap = true; });
  source.addEventListener('node', (message) => receive(message.data));
}

/** Closes the stream and forgets the fleet (on log-out). */
export function reset() {
  source?.close();
  source = null;
  loading = null;
  nodes.clear();
  pending.clear();
  historyErrors.length = 0;
  stats.loadedAt = 0;
  notify();
}

function receive(data) {
  let event;
  try {
    event = JSON.parse(data);
  } catch {
    return;
  }
  const now = performance.now();
  if (stats.events === 0) stats.firstEventAt = now;
  stats.events++;
  stats.lastEventAt = now;
  if (!event || typeof event !== 'object' || !event.node || typeof event.node.uuid !== 'string') return;
  if (event.type === 'history') historySeen.set(event.node.uuid, (historySeen.get(event.node.uuid) ?? 0) + 1);
  if (event.type === 'history' && event.history && /error/i.test(String(event.history.severity))) {
    historyErrors.push({ node: event.node, history: event.history });
    if (historyErrors.length > 500) historyErrors.shift();
  }
  pending.set(event.node.uuid, event.type === 'deleted' ? null : event.node);
  if (frame === 0) frame = requestAnimationFrame(applyPending);
}

function applyPending() {
  frame = 0;
  for (const [uuid, node] of pending) {
    touchedSince?.add(uuid);
    if (node === null) nodes.delete(uuid);
    else nodes.set(uuid, { ...nodes.get(uuid), ...node });
  }
  stats.appliedNodes += pending.size;
  stats.batches++;
  stats.lastBatchAt = performance.now();
  pending.clear();
  notify();
}

/** Merges a node the app fetched itself (after an action) into the list. */
export function mergeNode(node) {
  if (!node?.uuid) return;
  nodes.set(node.uuid, { ...nodes.get(node.uuid), ...pickList(node) });
  notify();
}

function pickList(node) {
  const out = {};
  for (const f of LIST_FIELDS) if (Object.prototype.hasOwnProperty.call(node, f)) out[f] = node[f];
  return out;
}
