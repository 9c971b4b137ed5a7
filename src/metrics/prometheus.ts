/**
 * ironic-ts's Prometheus figures (an addition: Ironic has none), kept with prom-client. Nothing is
 * loaded or counted unless [prometheus]enabled: every record call is then one boolean test.
 * Call sites record through the functions below; endpoint.ts serves the registry.
 */
import type * as Prom from 'prom-client';

/** Sources read at scrape time (worker pool use, nodes by state), registered by the process that has them. */
interface Sources {
  pool?: () => { size: number; active: number };
  nodes?: () => Promise<Array<{ provision_state: string | null; power_state: string | null; maintenance: boolean | number | null; count: number }>>;
}

interface Figures {
  registry: Prom.Registry;
  apiLatency: Prom.Histogram<'method' | 'route' | 'status'>;
  taskDuration: Prom.Histogram<'action'>;
  powerSyncDuration: Prom.Histogram;
  powerSyncErrors: Prom.Counter;
  bmcRoundTrip: Prom.Histogram<'protocol' | 'outcome'>;
  imageCache: Prom.Counter<'result'>;
}

let figures: Figures | null = null;
const sources: Sources = {};

const FAST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const SLOW_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 1800, 3600];

function build(): Figures {
  const prom = require('prom-client') as typeof Prom;
  const registry = new prom.Registry();
  prom.collectDefaultMetrics({ register: registry });
  const f: Figures = {
    registry,
    apiLatency: new prom.Histogram({
      name: 'ironic_api_request_duration_seconds', help: 'API request latency, by method, route and status.',
      labelNames: ['method', 'route', 'status'], buckets: FAST_BUCKETS, registers: [registry],
    }),
    taskDuration: new prom.Histogram({
      name: 'ironic_conductor_task_duration_seconds', help: 'How long the conductor held a node for an action, spawned work included.',
      labelNames: ['action'], buckets: SLOW_BUCKETS, registers: [registry],
    }),
    powerSyncDuration: new prom.Histogram({
      name: 'ironic_conductor_power_sync_duration_seconds', help: 'Duration of one power state sync pass over the nodes.',
      buckets: SLOW_BUCKETS, registers: [registry],
    }),
    powerSyncErrors: new prom.Counter({
      name: 'ironic_conductor_power_sync_errors_total', help: 'Nodes whose power state could not be read or set during a sync.',
      registers: [registry],
    }),
    bmcRoundTrip: new prom.Histogram({
      name: 'ironic_bmc_request_duration_seconds', help: 'BMC round trips, by protocol and outcome.',
      labelNames: ['protocol', 'outcome'], buckets: FAST_BUCKETS, registers: [registry],
    }),
    imageCache: new prom.Counter({
      name: 'ironic_image_cache_requests_total', help: 'Image cache requests: served from the cache (hit) or downloaded (download).',
      labelNames: ['result'], registers: [registry],
    }),
  };
  addScrapeGauges(prom, registry);
  return f;
}

function addScrapeGauges(prom: typeof Prom, registry: Prom.Registry): void {
  new prom.Gauge({
    name: 'ironic_conductor_workers', help: 'Conductor worker pool: its size and the workers in use.',
    labelNames: ['kind'], registers: [registry],
    collect() {
      const pool = sources.pool?.();
      if (!pool) return;
      this.set({ kind: 'size' }, pool.size);
      this.set({ kind: 'busy' }, pool.active);
    },
  });
  const byProvision = new prom.Gauge({ name: 'ironic_nodes_by_provision_state', help: 'Nodes by provision state.', labelNames: ['provision_state'], registers: [registry] });
  const byPower = new prom.Gauge({ name: 'ironic_nodes_by_power_state', help: 'Nodes by power state.', labelNames: ['power_state'], registers: [registry] });
  new prom.Gauge({
    name: 'ironic_nodes_in_maintenance', help: 'Nodes in maintenance.', registers: [registry],
    async collect() {
      if (!sources.nodes) return;
      const rows = await sources.nodes();
      byProvision.reset();
      byPower.reset();
      let maintenance = 0;
      for (const row of rows) {
        byProvision.inc({ provision_state: row.provision_state ?? 'None' }, row.count);
        byPower.inc({ power_state: row.power_state ?? 'None' }, row.count);
        if (row.maintenance) maintenance += row.count;
      }
      this.set(maintenance);
    },
  });
}

export function enablePrometheus(): void {
  figures ??= build();
}

export function prometheusRegistry(): Prom.Registry | null {
  return figures?.registry ?? null;
}

export function setPrometheusSources(more: Sources): void {
  Object.assign(sources, more);
}

export function observeApiRequest(method: string, route: string, status: number, seconds: number): void {
  figures?.apiLatency.observe({ method, route, status: String(status) }, seconds);
}

export function observeConductorTask(action: string, seconds: number): void {
  figures?.taskDuration.observe({ action }, seconds);
}

export function observePowerSync(seconds: number, errors: number): void {
  if (!figures) return;
  figures.powerSyncDuration.observe(seconds);
  if (errors) figures.powerSyncErrors.inc(errors);
}

/** Times one BMC round trip (`ipmi`, `ipmitool`, `redfish`, `snmp`). */
export async function timeBmc<T>(protocol: string, work: () => Promise<T>): Promise<T> {
  const f = figures;
  if (!f) return work();
  const started = performance.now();
  let outcome = 'error';
  try {
    const result = await work();
    outcome = 'ok';
    return result;
  } finally {
    f.bmcRoundTrip.observe({ protocol, outcome }, (performance.now() - started) / 1000);
  }
}

export function countImageCache(result: 'hit' | 'download'): void {
  figures?.imageCache.inc({ result });
}
