/**
 * `ironic-compute`: Nova's bare-metal compute operations for clouds without Nova.
 *   ironic-compute --url URL boot --node N --image URL [--ssh-key FILE] [--user-data FILE] [--name NAME]
 *   ironic-compute --url URL delete --node N
 *   ironic-compute --url URL list
 * Progress goes to stdout one line per observed state change; errors to stderr with exit status 1.
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import { parseArgs } from 'node:util';
import { IronicClient, IronicNode } from '../compute/client';
import { ComputeDriver } from '../compute/driver';
import { ComputeError } from '../compute/errors';
import type { Flavor, ProgressFn } from '../compute/types';

const USAGE = `usage: ironic-compute [--url URL] [--api-version V] [--interval SECONDS] [--timeout SECONDS] COMMAND
  boot   --node N --image URL [--ssh-key FILE] [--user-data FILE] [--name NAME] [--instance-uuid UUID] [--admin-pass P]
  delete --node N
  list`;

class UsageError extends Error {
  override readonly name = 'UsageError';
}

const OPTIONS = {
  url: { type: 'string' }, 'api-version': { type: 'string' }, interval: { type: 'string' }, timeout: { type: 'string' },
  node: { type: 'string' }, image: { type: 'string' }, 'ssh-key': { type: 'string' }, 'user-data': { type: 'string' },
  name: { type: 'string' }, 'instance-uuid': { type: 'string' }, 'admin-pass': { type: 'string' }, help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

/** Prints a line only when the (state, target) pair changes, so polling does not flood. */
function progressPrinter(): ProgressFn {
  let last = '';
  return (e) => {
    const line = e.provisionState !== undefined
      ? `${e.phase}: node ${e.node} provision_state=${e.provisionState ?? 'None'} target=${e.targetState ?? 'None'}`
      : `${e.phase}: node ${e.node}${e.message ? ` ${e.message}` : ''}`;
    if (line !== last) process.stdout.write(`${line}\n`);
    last = line;
  };
}

function required(v: Values, key: 'node' | 'image'): string {
  const value = v[key];
  if (!value) throw new UsageError(`--${key} is required`);
  return value;
}

/** The "flavor" is the whole node, as with Nova's one-resource-class bare-metal flavors. */
function flavorFor(node: IronicNode): Flavor {
  const p = node.properties ?? {};
  return { vcpus: Number(p.cpus ?? 0), memoryMb: Number(p.memory_mb ?? 0), rootGb: Number(p.local_gb ?? 0) };
}

async function boot(driver: ComputeDriver, v: Values): Promise<void> {
  const node = await driver.client.getNode(required(v, 'node'));
  const instanceUuid = v['instance-uuid'] ?? randomUUID();
  const name = v.name ?? node.name ?? `instance-${instanceUuid.slice(0, 8)}`;
  process.stdout.write(`boot: instance ${instanceUuid} (${name}) on node ${node.uuid}\n`);
  const done = await driver.spawn({
    node: node.uuid, instanceUuid, name, image: required(v, 'image'), flavor: flavorFor(node),
    sshKey: v['ssh-key'] ? fs.readFileSync(v['ssh-key'], 'utf8').trim() : undefined,
    userData: v['user-data'] ? fs.readFileSync(v['user-data'], 'utf8') : undefined,
    adminPass: v['admin-pass'],
  });
  process.stdout.write(`active: node ${done.uuid} instance ${done.instance_uuid}\n`);
}

async function remove(driver: ComputeDriver, v: Values): Promise<void> {
  const n = await driver.destroy(required(v, 'node'));
  process.stdout.write(`deleted: node ${n.uuid} provision_state=${n.provision_state}\n`);
}

async function list(driver: ComputeDriver): Promise<void> {
  const rows = (await driver.getAvailableNodes()).map((n) =>
    [n.uuid, n.name ?? '', n.instance_uuid ?? '-', n.provision_state ?? 'None', n.power_state ?? 'None'].join('\t'));
  process.stdout.write(['UUID\tNAME\tINSTANCE\tPROVISION\tPOWER', ...rows].join('\n') + '\n');
}

async function main(argv: string[]): Promise<void> {
  const { values: v, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
  if (v.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const url = v.url ?? process.env.IRONIC_URL;
  if (!url) throw new UsageError('--url (or IRONIC_URL) is required');
  const client = new IronicClient({ url, apiVersion: v['api-version'] });
  const driver = new ComputeDriver(client, {
    intervalMs: v.interval ? Number(v.interval) * 1000 : 2000,
    timeoutMs: v.timeout ? Number(v.timeout) * 1000 : undefined,
    onProgress: progressPrinter(),
  });
  const command = positionals[0];
  if (command === 'boot') await boot(driver, v);
  else if (command === 'delete') await remove(driver, v);
  else if (command === 'list') await list(driver);
  else throw new UsageError(command ? `unknown command: ${command}` : 'a command is required');
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError) process.stderr.write(`error: ${err.message}\n${USAGE}\n`);
  else if (err instanceof ComputeError) process.stderr.write(`error: ${err.name}: ${err.message}\n`);
  else process.stderr.write(`error: ${(err as Error).message ?? String(err)}\n`);
  process.exitCode = 1;
});
