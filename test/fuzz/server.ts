/**
 * The server under fuzz: the API test server (API + in-process conductor, temp SQLite) with debug
 * logging to a file and secrets in its configuration too, so the log and the answers can be
 * searched for every secret it holds.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { configureLogging } from '../../src/common/log';
import { startTestServer, TestServer } from '../api/support/server';
import { SECRET } from './secrets';
import { Bmcs, startBmcs } from './bmcs';

export interface FuzzServer {
  server: TestServer;
  bmcs: Bmcs;
  logFile: string;
  stop(): Promise<void>;
}

/** `keepLog`: a path for the server's log that outlives the run (FUZZ_LOG), else a temp file. */
export async function startFuzzServer(keepLog?: string): Promise<FuzzServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ironic-ts-fuzz-'));
  const logFile = keepLog ?? path.join(dir, 'ironic.log');
  // startTestServer does not configure logging (the commands' bootstrap does): done here, as bootstrap would.
  configureLogging({ debug: true, logFile });
  const bmcs = await startBmcs();
  const server = await startTestServer({
    DEFAULT: { debug: 'true', log_file: logFile },
    keystone_authtoken: { password: SECRET.confPassword },
    json_rpc: { password: SECRET.confPassword, http_basic_password: SECRET.confPassword },
    // Emulated BMCs answer at once; short timeouts keep a refused or unreachable one from stalling the run.
    ipmi: { command_retry_timeout: '3', min_command_interval: '0' },
    redfish: { connection_attempts: '1', connection_retry_interval: '1' },
    conductor: { power_state_change_timeout: '5', sync_power_state_interval: '10' },
    // A heartbeat with the fixture node's token and an agent_verify_ca stores that certificate.
    agent: { certificates_path: path.join(dir, 'certificates') },
  }).catch(async (err: unknown) => {
    await bmcs.stop(); // Its sockets would keep the process alive.
    throw err;
  });
  return {
    server,
    bmcs,
    logFile,
    async stop() {
      await server.stop();
      await bmcs.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Reads a numeric setting from the environment, with a default. */
export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(value)) throw new Error(`${name} must be a number, not ${raw}`);
  return value;
}
