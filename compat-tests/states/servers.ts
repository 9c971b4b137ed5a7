/**
 * The two servers the state-machine walk runs against: the reference Ironic
 * (support/reference-ironic.ts) and ironic-ts, both on fake-hardware with the same extra options.
 * The reference's launcher writes its own ironic.conf, so the reference gets the extras through
 * oslo.config's environment source (OS_<GROUP>__<OPTION>); ironic-ts gets them in its ironic.conf.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startReferenceIronic } from '../support/reference-ironic';
import { freePort, startIronicTs, Target } from '../support/target';

/** Option overrides both sides get: group -> option -> value. */
export type Overrides = Readonly<Record<string, Readonly<Record<string, string>>>>;

/**
 * Periodic checks every second so callback timeouts fire during the walk (the timeouts keep their
 * defaults: the walk seeds wait states with an old provision_updated_at), and snmp power enabled
 * next to fake so one node has a power interface without soft power actions. Power sync is off:
 * its locks would race the walk's requests.
 */
export const WALK_OVERRIDES: Overrides = {
  DEFAULT: { enabled_power_interfaces: 'fake,snmp' },
  conductor: { check_provision_state_interval: '1', check_rescue_state_interval: '1', sync_power_state_interval: '0' },
};

/** The overrides as oslo.config's environment source reads them: OS_<GROUP>__<OPTION>. */
function envFor(overrides: Overrides): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [group, options] of Object.entries(overrides)) {
    for (const [name, value] of Object.entries(options)) env[`OS_${group.toUpperCase()}__${name.toUpperCase()}`] = value;
  }
  return env;
}

/**
 * The overrides as the text startIronicTs appends to [DEFAULT]: DEFAULT options first, then one
 * section per group (later lines win in ironic-ts's loader, as in oslo.config).
 */
export function extraConf(overrides: Overrides): string {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(overrides.DEFAULT ?? {})) lines.push(`${name} = ${value}`);
  for (const [group, options] of Object.entries(overrides)) {
    if (group === 'DEFAULT') continue;
    lines.push(`[${group}]`);
    for (const [name, value] of Object.entries(options)) lines.push(`${name} = ${value}`);
  }
  // Back to [DEFAULT] for the lines referenceLikeConf writes after the extras.
  lines.push('[DEFAULT]');
  return lines.join('\n');
}

export interface WalkTarget extends Target {
  /** The SQLite file the server uses, for seeding states the fake interfaces never reach. */
  dbFile: string;
}

export async function startReferenceWith(overrides: Overrides): Promise<WalkTarget> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'states-ref-'));
  const port = await freePort();
  const removeDir = (): void => fs.rmSync(dir, { recursive: true, force: true });
  const server = await startReferenceIronic({ dir, port, env: envFor(overrides) }).catch((err: Error) => {
    removeDir();
    throw err;
  });
  const stop = async (): Promise<void> => {
    await server.stop();
    removeDir();
  };
  return { url: server.url, kind: 'reference', dir, pid: server.pid, dbFile: path.join(dir, 'ironic.sqlite'), stop };
}

export async function startIronicTsWith(overrides: Overrides): Promise<WalkTarget> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'states-ts-'));
  const target = await startIronicTs(dir, await freePort(), extraConf(overrides));
  return { ...target, dbFile: path.join(dir, 'ironic.sqlite') };
}
