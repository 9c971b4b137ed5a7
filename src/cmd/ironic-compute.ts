/**
 * `ironic-compute`: Nova's bare-metal compute operations for clouds without Nova, one command per
 * driver operation (boot, show, reboot, power-off/on, rebuild, rescue/unrescue, attach/detach-interface,
 * console, resources, list, delete). Progress goes to stdout one line per observed state change;
 * errors to stderr as `error: <Nova exception name>: <message>` with exit status 1.
 */
import { IronicClient } from '../compute/client';
import { COMMANDS, usage } from '../compute/cli/commands';
import { parseCommandLine, seconds, UsageError } from '../compute/cli/args';
import { progressPrinter } from '../compute/cli/output';
import { ComputeDriver } from '../compute/driver';
import { ComputeError } from '../compute/errors';

async function main(argv: string[]): Promise<void> {
  const { values: v, positionals } = parseCommandLine(argv);
  if (v.help) {
    process.stdout.write(`${usage()}\n`);
    return;
  }
  const name = positionals[0];
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new UsageError(name ? `unknown command: ${name}` : 'a command is required');
  const url = v.url ?? process.env.IRONIC_URL;
  if (!url) throw new UsageError('--url (or IRONIC_URL) is required');
  const interval = seconds(v.interval, 'interval');
  const timeout = seconds(v.timeout, 'timeout');
  const driver = new ComputeDriver(new IronicClient({ url, apiVersion: v['api-version'] }), {
    intervalMs: interval === undefined ? 2000 : interval * 1000,
    timeoutMs: timeout === undefined ? undefined : timeout * 1000,
    onProgress: progressPrinter(),
  });
  await command.run(driver, v);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError) process.stderr.write(`error: ${err.message}\n${usage()}\n`);
  else if (err instanceof ComputeError) process.stderr.write(`error: ${err.name}: ${err.message}\n`);
  else process.stderr.write(`error: ${(err as Error).message ?? String(err)}\n`);
  process.exitCode = 1;
});
