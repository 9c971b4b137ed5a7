/**
 * Drives one server through the walk and records, after every step, what a polling client sees
 * of each node: provision and power state, targets, last_error, fault, maintenance, and whether
 * provision_updated_at moved. uuids become the names the walk gave the nodes, so the records of
 * the reference and of ironic-ts compare as plain data.
 */
import type { WalkTarget } from './servers';

export const MAX = '1.82';

/** States a node passes through while a worker runs; settling waits them out. */
const TRANSIENT = ['verifying', 'deploying', 'cleaning', 'inspecting', 'adopting', 'rescuing', 'unrescuing', 'deleting',
  'servicing'];

export interface NodeView {
  provision_state: unknown;
  target_provision_state: unknown;
  last_error: unknown;
  provision_updated_at: 'changed' | 'unchanged' | 'null';
  power_state: unknown;
  target_power_state: unknown;
  fault: unknown;
  maintenance: unknown;
  clean_step: unknown;
  deploy_step: unknown;
  driver_internal_info: unknown;
  instance_info: unknown;
  maintenance_reason: unknown;
}

export interface StepRecord {
  step: string;
  status?: number;
  error?: string;
  node?: NodeView;
  /** Bad input: the node fields that differ between before and after the refused request. */
  changed?: string[];
  events?: unknown[];
}

export interface Response {
  status: number;
  body: Record<string, unknown>;
}

export class Recorder {
  readonly records: StepRecord[] = [];
  private readonly names = new Map<string, string>();
  private readonly lastUpdated = new Map<string, unknown>();

  constructor(readonly target: WalkTarget) {}

  uuidOf(name: string): string {
    for (const [uuid, n] of this.names) if (n === name) return uuid;
    throw new Error(`no node named ${name}`);
  }

  async call(method: string, path: string, body?: unknown, version: string = MAX): Promise<Response> {
    const headers: Record<string, string> = { 'X-OpenStack-Ironic-API-Version': version };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${this.target.url}${path}`, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = text ? JSON.parse(text) as Record<string, unknown> : {};
    } catch {
      parsed = { text };
    }
    return { status: res.status, body: parsed };
  }

  /** Creates a node and names it for the records. */
  async createNode(name: string, fields: Record<string, unknown> = {}): Promise<void> {
    const res = await this.call('POST', '/v1/nodes', { driver: 'fake-hardware', name, ...fields });
    if (res.status !== 201) throw new Error(`${this.target.kind}: node create failed ${res.status} ${JSON.stringify(res.body)}`);
    this.names.set(String(res.body.uuid), name);
    await this.record(`create ${name}`, name, { status: res.status });
  }

  /** A request against a node; its answer and the node afterwards (once settled) are recorded. */
  async act(step: string, name: string, method: string, subpath: string, body?: unknown, version?: string,
    settleUntil?: (n: Record<string, unknown>) => boolean): Promise<void> {
    const res = await this.call(method, `/v1/nodes/${this.uuidOf(name)}${subpath}`, body, version);
    if (res.status < 400) await this.settle(name, settleUntil);
    await this.record(step, name, { status: res.status, error: this.errorOf(res) });
  }

  /** A request that must be refused: its answer, and whether the node is untouched. */
  async refuse(step: string, name: string, method: string, subpath: string, body?: unknown, version?: string): Promise<void> {
    const before = await this.rawNode(name);
    const res = await this.call(method, `/v1/nodes/${this.uuidOf(name)}${subpath}`, body, version);
    if (res.status < 400) await this.settle(name);
    const after = await this.rawNode(name);
    const changed = Object.keys(after).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
    this.records.push({ step, status: res.status, error: this.errorOf(res), changed });
  }

  /** Records the node after waiting (e.g. for a periodic timeout check) until `until` holds. */
  async waitFor(step: string, name: string, until: (n: Record<string, unknown>) => boolean): Promise<void> {
    await this.settle(name, until);
    await this.record(step, name, {});
  }

  /** The node's history (node_history records of failures and aborts), oldest first. */
  async history(name: string): Promise<void> {
    const res = await this.call('GET', `/v1/nodes/${this.uuidOf(name)}/history?detail=True`);
    const events = ((res.body.history ?? []) as Record<string, unknown>[])
      .map((e) => ({ event: this.normalize(e.event), event_type: e.event_type, severity: e.severity }));
    this.records.push({ step: `history of ${name}`, status: res.status, events });
  }

  async record(step: string, name: string, extra: Partial<StepRecord>): Promise<void> {
    const node = await this.rawNode(name);
    const uuid = this.uuidOf(name);
    const updated = node.provision_updated_at;
    const view: NodeView = {
      provision_state: node.provision_state,
      target_provision_state: node.target_provision_state,
      last_error: this.normalize(node.last_error),
      provision_updated_at: updated === null ? 'null' : this.lastUpdated.get(uuid) === updated ? 'unchanged' : 'changed',
      power_state: node.power_state,
      target_power_state: node.target_power_state,
      fault: node.fault,
      maintenance: node.maintenance,
      clean_step: node.clean_step,
      deploy_step: node.deploy_step,
      driver_internal_info: this.normalize(node.driver_internal_info),
      instance_info: this.normalize(node.instance_info),
      maintenance_reason: this.normalize(node.maintenance_reason),
    };
    this.lastUpdated.set(uuid, updated);
    const rec: StepRecord = { step, ...extra, node: view };
    if (rec.error === undefined) delete rec.error;
    if (rec.status === undefined) delete rec.status;
    this.records.push(rec);
  }

  async rawNode(name: string): Promise<Record<string, unknown>> {
    const res = await this.call('GET', `/v1/nodes/${this.uuidOf(name)}`);
    if (res.status !== 200) throw new Error(`${this.target.kind}: GET ${name} answered ${res.status}`);
    return res.body;
  }

  /** Polls until no lock, no power change and no transient state remain (and `until` holds). */
  private async settle(name: string, until?: (n: Record<string, unknown>) => boolean): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const n = await this.rawNode(name);
      const quiet = n.reservation === null && n.target_power_state === null
        && !TRANSIENT.includes(String(n.provision_state));
      if (quiet && (!until || until(n))) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    this.records.push({ step: `settle ${name} timed out` });
  }

  private errorOf(res: Response): string | undefined {
    if (res.status < 400) return undefined;
    const wrapped = res.body.error_message;
    let text: unknown = wrapped;
    if (typeof wrapped === 'string') {
      try {
        text = (JSON.parse(wrapped) as Record<string, unknown>).faultstring;
      } catch {
        text = wrapped;
      }
    }
    return this.normalize(text) as string;
  }

  /** uuids -> node names, other uuids -> <uuid>, timestamps -> <time>, inside nested values too. */
  normalize(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((v) => this.normalize(v));
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.normalize(v)]));
    }
    if (typeof value !== 'string') return value;
    if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.test(value)) return '<time>';
    return value.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi,
      (u) => `<${this.names.get(u.toLowerCase()) ?? 'uuid'}>`);
  }
}
