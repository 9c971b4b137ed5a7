// CLI: run one ironic-python-agent emulator (a node's "ramdisk") until interrupted.
//   node dist/src/cmd/agent-emulator.js --ironic-url http://127.0.0.1:6385 --mac 52:54:00:12:34:56
//     --disk /tmp/node.disk [--configdrive /tmp/node.configdrive] [--port 9999] [--host 127.0.0.1]
//     [--heartbeat-interval-ms 1000]

import { parseArgs } from 'node:util';
import { startAgentEmulator, type AgentEmulatorOptions } from '../emulators/agent/server';

function toInt(value: string | undefined, name: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got ${value}`);
  return n;
}

function optionsFromArgv(argv: string[]): AgentEmulatorOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      'ironic-url': { type: 'string', default: 'http://127.0.0.1:6385' },
      mac: { type: 'string', multiple: true },
      disk: { type: 'string' },
      configdrive: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '0' },
      'heartbeat-interval-ms': { type: 'string', default: '1000' },
    },
  });
  if (!values.mac?.length) throw new Error('at least one --mac is required (the node\'s port addresses)');
  if (!values.disk) throw new Error('--disk FILE is required (the file standing for the root disk)');
  return {
    ironicUrl: values['ironic-url']!.replace(/\/+$/, ''),
    macs: values.mac,
    disks: { root: values.disk, configdrive: values.configdrive ?? `${values.disk}.configdrive` },
    host: values.host,
    port: toInt(values.port, 'port'),
    heartbeatIntervalMs: toInt(values['heartbeat-interval-ms'], 'heartbeat-interval-ms'),
  };
}

async function main(): Promise<void> {
  const emulator = await startAgentEmulator(optionsFromArgv(process.argv.slice(2)));
  process.stdout.write(`Agent emulator listening on ${emulator.url}\n`);
  const shutdown = (): void => {
    void emulator.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((err: unknown) => {
  process.stderr.write(`agent-emulator: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
});
