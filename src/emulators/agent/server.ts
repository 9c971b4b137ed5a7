/**
 * An ironic-python-agent emulator for one node: it serves IPA's HTTP API
 * (`GET /v1/commands/`, `POST /v1/commands/?wait=&agent_token=`) and, like a booted ramdisk,
 * looks its node up (`GET /v1/lookup?addresses=MACs`) and heartbeats
 * (`POST /v1/heartbeat/{uuid}` with callback_url, agent_token, agent_version) to Ironic.
 * A rejected heartbeat (the token went with a reboot) sends it back to lookup, as a
 * rebooted agent would. Images land in file-backed disks (standby.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentBusy, CommandRunner, UnknownCommand } from './commands';
import type { Disks, JsonObject } from './standby';

export interface AgentEmulatorOptions {
  /** Ironic API base URL, e.g. http://127.0.0.1:6385 */
  ironicUrl: string;
  /** MAC addresses of the node's ports, used for lookup. */
  macs: string[];
  disks: Disks;
  heartbeatIntervalMs?: number;
  host?: string;
  port?: number;
  apiVersion?: string;
  agentVersion?: string;
  /** File finalize_rescue writes the hashed rescue password to. */
  rescuePasswordFile?: string;
}

export interface AgentEmulator {
  url: string;
  runner: CommandRunner;
  /** Node uuid once a lookup succeeded. */
  nodeUuid(): string | null;
  stats: { lookups: number; heartbeats: number; rejectedHeartbeats: number };
  stop(): Promise<void>;
}

const MAX_BODY = 80 * 1024 * 1024;

function reply(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

async function readJson(req: IncomingMessage): Promise<JsonObject> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error('request body too large');
    chunks.push(chunk as Buffer);
  }
  const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as unknown;
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed as JsonObject : {};
}

class Ramdisk {
  token: string | null = null;
  uuid: string | null = null;
  readonly stats = { lookups: 0, heartbeats: 0, rejectedHeartbeats: 0 };
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly opts: AgentEmulatorOptions, private readonly callbackUrl: () => string,
    private readonly runner: CommandRunner) {}

  private headers(): Record<string, string> {
    return { 'Content-Type': 'application/json', 'X-OpenStack-Ironic-API-Version': this.opts.apiVersion ?? '1.82' };
  }

  private async lookup(): Promise<boolean> {
    this.stats.lookups++;
    const query = new URLSearchParams({ addresses: this.opts.macs.join(',') });
    const res = await fetch(`${this.opts.ironicUrl}/v1/lookup?${query.toString()}`, { headers: this.headers() });
    if (res.status !== 200) return false;
    const body = await res.json() as { node: { uuid: string }; config: { agent_token?: string | null } };
    this.uuid = body.node.uuid;
    this.token = body.config.agent_token ?? null;
    return true;
  }

  private async heartbeat(): Promise<void> {
    this.stats.heartbeats++;
    const res = await fetch(`${this.opts.ironicUrl}/v1/heartbeat/${this.uuid}`, {
      method: 'POST', headers: this.headers(),
      body: JSON.stringify({ callback_url: this.callbackUrl(), agent_token: this.token, agent_version: this.opts.agentVersion ?? '9.4.1' }),
    });
    await res.arrayBuffer();
    if (res.status >= 400 && res.status < 500) {
      // Our token is gone (the node was rebooted into a fresh ramdisk): look up again, with no commands run yet.
      this.stats.rejectedHeartbeats++;
      this.runner.reboot();
      this.token = null;
      this.uuid = null;
    }
  }

  private async tick(): Promise<void> {
    // After finalize_rescue IPA exits: the rescued system no longer calls Ironic.
    if (this.runner.rescue) return;
    try {
      if (!this.token || !this.uuid) {
        if (await this.lookup()) await this.heartbeat();
      } else {
        await this.heartbeat();
      }
    } catch {
      // Ironic unreachable for a moment: a real agent keeps trying too.
    }
  }

  start(): void {
    const loop = async () => {
      if (this.stopped) return;
      await this.tick();
      if (!this.stopped) this.timer = setTimeout(() => void loop(), this.opts.heartbeatIntervalMs ?? 1000);
    };
    void loop();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }
}

async function handle(req: IncomingMessage, res: ServerResponse, runner: CommandRunner, ramdisk: Ramdisk): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://agent');
  if (url.pathname.replace(/\/+$/, '') !== '/v1/commands') {
    reply(res, 404, { faultstring: 'Not found', faultcode: 'Client' });
    return;
  }
  if (runner.rescue) {
    // serve_api is off once the rescue is finalized.
    reply(res, 404, { faultstring: 'Not found', faultcode: 'Client' });
    return;
  }
  if (req.method === 'GET') {
    reply(res, 200, { commands: runner.commands });
    return;
  }
  if (req.method !== 'POST') {
    reply(res, 405, { faultstring: 'Method not allowed', faultcode: 'Client' });
    return;
  }
  const token = url.searchParams.get('agent_token');
  if (ramdisk.token && token !== ramdisk.token) {
    reply(res, 401, { faultstring: 'Unauthorized: Invalid or missing agent_token', faultcode: 'Client' });
    return;
  }
  const body = await readJson(req);
  try {
    const entry = await runner.execute(String(body.name ?? ''), (body.params ?? {}) as JsonObject,
      url.searchParams.get('wait') === 'true');
    reply(res, 200, entry);
  } catch (err) {
    if (err instanceof UnknownCommand) reply(res, 400, { faultstring: err.message, faultcode: 'Client' });
    else if (err instanceof AgentBusy) reply(res, 409, { faultstring: 'Command failed: agent is busy', faultcode: 'Client' });
    else throw err;
  }
}

export async function startAgentEmulator(opts: AgentEmulatorOptions): Promise<AgentEmulator> {
  const runner = new CommandRunner(opts.disks);
  runner.rescuePasswordFile = opts.rescuePasswordFile ?? null;
  let base = '';
  const ramdisk = new Ramdisk(opts, () => base, runner);
  const server: Server = createServer((req, res) => {
    handle(req, res, runner, ramdisk).catch((err: Error) => reply(res, 500, { faultstring: err.message, faultcode: 'Server' }));
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  const addr = server.address() as AddressInfo;
  base = `http://${opts.host ?? '127.0.0.1'}:${addr.port}`;
  ramdisk.start();
  return {
    url: base,
    runner,
    nodeUuid: () => ramdisk.uuid,
    stats: ramdisk.stats,
    async stop() {
      ramdisk.stop();
      await runner.idle();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
