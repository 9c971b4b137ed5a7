/**
 * What the hardware-type CLI compat tests share: the `baremetal` CLI against a target, a direct
 * API call for the steps a test does not check (the CLI is slow to start), and waiting for a
 * node to settle.
 */
import assert from 'node:assert/strict';
import { baremetal, parseJson, RunResult } from './python';

export type Row = Record<string, unknown>;

const API_HEADERS = { 'X-OpenStack-Ironic-API-Version': '1.82', 'Content-Type': 'application/json' };

export interface CliNodeClient {
  bm(args: string[]): Promise<RunResult>;
  /** `baremetal ARGS -f json`, parsed. */
  bmJson<T = Row>(args: string[]): Promise<T>;
  /** `baremetal ARGS`, which must succeed. */
  bmOk(args: string[]): Promise<void>;
  api(method: string, urlPath: string, body?: unknown): Promise<Row>;
  /** Polls the node until pred holds and no task holds it. */
  waitNode(uuid: string, pred: (n: Row) => boolean, what: string, timeoutMs?: number): Promise<Row>;
  /** enroll -> manageable: verification reads the power state through the node's power interface. */
  manage(uuid: string): Promise<Row>;
  /** `baremetal node validate`, keyed by interface. */
  validate(uuid: string): Promise<Record<string, Row>>;
  /**
   * Waits for the power sync to give up on the node, then checks what `baremetal node show`
   * reports: maintenance, fault `power failure`, Ironic's reason, and last_error matching.
   */
  expectSyncMaintenance(uuid: string, lastError: RegExp | string): Promise<Row>;
  /**
   * `baremetal node power on`, `power off`, `reboot`, each waited for, with the machine's power as
   * the BMC or PDU reports it (read behind the conductor's back) checked after each.
   */
  cyclePower(uuid: string, bmcPower: () => Promise<'on' | 'off'>): Promise<void>;
}

export function cliNodeClient(url: () => string): CliNodeClient {
  const bm = (args: string[]): Promise<RunResult> => baremetal(url(), args);

  async function api(method: string, urlPath: string, body?: unknown): Promise<Row> {
    const res = await fetch(`${url()}${urlPath}`, { method, headers: API_HEADERS, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    assert.ok(res.ok, `${method} ${urlPath}: ${res.status} ${text}`);
    return text ? (JSON.parse(text) as Row) : {};
  }

  // Generous: on a loaded 2-core machine one power action over SSH and virsh took over 20 s.
  async function waitNode(uuid: string, pred: (n: Row) => boolean, what: string, timeoutMs = 120_000): Promise<Row> {
    const deadline = Date.now() + timeoutMs;
    let node: Row = {};
    while (Date.now() < deadline) {
      node = await api('GET', `/v1/nodes/${uuid}`);
      if (pred(node) && node.reservation === null) return node;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`node ${uuid} never reached: ${what}; last ${JSON.stringify(node).slice(0, 600)}`);
  }

  const bmJson = async <T = Row>(args: string[]): Promise<T> => parseJson<T>(await bm([...args, '-f', 'json']));

  return {
    bm,
    bmJson,
    async bmOk(args) {
      const res = await bm(args);
      assert.equal(res.code, 0, `baremetal ${args.join(' ')}: ${res.stderr}`);
    },
    api,
    waitNode,
    async manage(uuid) {
      await api('PUT', `/v1/nodes/${uuid}/states/provision`, { target: 'manage' });
      return waitNode(uuid, (n) => n.provision_state === 'manageable', 'manageable');
    },
    async validate(uuid) {
      const rows = await bmJson<Row[]>(['node', 'validate', uuid]);
      return Object.fromEntries(rows.map((r) => [String(r.Interface), r]));
    },
    async expectSyncMaintenance(uuid, lastError) {
      await waitNode(uuid, (n) => n.maintenance === true, 'maintenance after repeated sync failures');
      const shown = await bmJson(['node', 'show', uuid, '--fields', 'maintenance', 'fault', 'maintenance_reason', 'last_error', 'power_state']);
      assert.equal(shown.maintenance, true);
      assert.equal(shown.fault, 'power failure');
      assert.match(String(shown.maintenance_reason), /^During sync_power_state, max retries exceeded for node /);
      if (typeof lastError === 'string') assert.equal(shown.last_error, lastError);
      else assert.match(String(shown.last_error), lastError);
      return shown;
    },
    async cyclePower(uuid, bmcPower) {
      const steps: Array<[string[], string, 'on' | 'off']> = [
        [['node', 'power', 'on', uuid], 'power on', 'on'],
        [['node', 'power', 'off', uuid], 'power off', 'off'],
        [['node', 'reboot', uuid], 'power on', 'on'],
      ];
      for (const [args, state, bmc] of steps) {
        const res = await bm(args);
        assert.equal(res.code, 0, `baremetal ${args.join(' ')}: ${res.stderr}`);
        await waitNode(uuid, (n) => n.power_state === state && n.target_power_state === null, args.join(' '));
        assert.equal(await bmcPower(), bmc, `after ${args.join(' ')}`);
      }
    },
  };
}

/** `--driver-info k=v` pairs for the CLI. */
export function driverInfoArgs(info: Record<string, string | number>): string[] {
  return Object.entries(info).flatMap(([k, v]) => ['--driver-info', `${k}=${v}`]);
}
