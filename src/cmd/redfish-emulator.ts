// CLI: run the Redfish BMC emulator until interrupted.
//   node dist/src/cmd/redfish-emulator.js --systems 3 --port 8000 [--host 127.0.0.1]
//     [--username admin --password secret [--no-basic] [--no-sessions]]
//     [--tls-cert cert.pem --tls-key key.pem] [--graceful-delay-ms 2000] [--task-duration-ms 1000]
//     [--system-ids a,b,c] [--require-if-match] [--session-timeout SECONDS]

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { RedfishEmulatorOptions, startRedfishEmulator } from '../emulators/redfish';

function optionsFromArgv(argv: string[]): RedfishEmulatorOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      systems: { type: 'string', default: '1' },
      'system-ids': { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '8000' },
      username: { type: 'string' },
      password: { type: 'string' },
      'no-basic': { type: 'boolean', default: false },
      'no-sessions': { type: 'boolean', default: false },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      'graceful-delay-ms': { type: 'string', default: '0' },
      'task-duration-ms': { type: 'string', default: '1000' },
      'require-if-match': { type: 'boolean', default: false },
      'session-timeout': { type: 'string', default: '1800' },
    },
  });
  const ids = values['system-ids'];
  const auth = values.username !== undefined
    ? {
      username: values.username,
      password: values.password ?? '',
      basic: !values['no-basic'],
      sessions: !values['no-sessions'],
      sessionTimeoutSec: toInt(values['session-timeout'], 'session-timeout'),
    }
    : null;
  const certPath = values['tls-cert'];
  const keyPath = values['tls-key'];
  if ((certPath === undefined) !== (keyPath === undefined)) throw new Error('--tls-cert and --tls-key go together');
  return {
    systems: ids ? ids.split(',').filter((s) => s !== '') : toInt(values.systems, 'systems'),
    host: values.host,
    port: toInt(values.port, 'port'),
    auth,
    tls: certPath && keyPath ? { cert: readFileSync(certPath), key: readFileSync(keyPath) } : null,
    gracefulShutdownDelayMs: toInt(values['graceful-delay-ms'], 'graceful-delay-ms'),
    taskDurationMs: toInt(values['task-duration-ms'], 'task-duration-ms'),
    requireIfMatch: values['require-if-match'],
  };
}

function toInt(value: string | undefined, name: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got ${value}`);
  return n;
}

async function main(): Promise<void> {
  const emulator = await startRedfishEmulator(optionsFromArgv(process.argv.slice(2)));
  process.stdout.write(`Redfish emulator serving ${emulator.systems().length} system(s) at ${emulator.url}/redfish/v1/\n`);
  const shutdown = (): void => {
    void emulator.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((err: unknown) => {
  process.stderr.write(`redfish-emulator: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
});
