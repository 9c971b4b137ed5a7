/**
 * Every hardware type ironic-ts shares with Ironic 29.0.5, with every shared implementation enabled
 * (the ssh hardware type and the iscsi deploy are ironic-ts's own and not enabled here), described by
 * `GET /v1/drivers?detail=True` and `GET /v1/drivers/{name}` exactly as Ironic 29.0.5 describes them:
 * the same enabled interfaces per type, in the same order, with the same defaults. The two servers get
 * the same options (the reference through oslo.config's environment source).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { ensureDebian13 } from '../support/debian13-root';
import { startReferenceIronic, type ReferenceIronic } from '../support/reference-ironic';
import { freePort, startIronicTs, type Target } from '../support/target';

const VERSION = '1.96';
const TYPES = ['fake-hardware', 'manual-management', 'ipmi', 'redfish', 'snmp'];

/** [DEFAULT] options: everything ironic-ts implements; no default deploy (the launcher's `fake` fits no real type). */
const OPTIONS: Readonly<Record<string, string>> = {
  enabled_hardware_types: TYPES.join(','),
  enabled_bios_interfaces: 'fake,no-bios,redfish',
  enabled_boot_interfaces: 'fake,ipxe,pxe,http,http-ipxe,redfish-virtual-media',
  enabled_console_interfaces: 'fake,no-console',
  enabled_deploy_interfaces: 'fake,direct,ramdisk',
  enabled_firmware_interfaces: 'fake,no-firmware,redfish',
  enabled_inspect_interfaces: 'fake,no-inspect,agent,redfish',
  enabled_management_interfaces: 'fake,noop,ipmitool,redfish',
  enabled_network_interfaces: 'flat,noop',
  enabled_power_interfaces: 'fake,ipmitool,redfish,snmp',
  enabled_raid_interfaces: 'fake,no-raid',
  enabled_rescue_interfaces: 'fake,no-rescue,agent',
  enabled_storage_interfaces: 'fake,noop',
  enabled_vendor_interfaces: 'fake,no-vendor,ipmitool,redfish',
  default_deploy_interface: 'direct',
};

const dirs: string[] = [];
let reference: ReferenceIronic | undefined;
let candidate: Target | undefined;

function scratch(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

before(async () => {
  // Ironic's ipmitool interfaces refuse to load without the ipmitool binary.
  await ensureDebian13(['ipmitool']);
  const env = Object.fromEntries(Object.entries(OPTIONS).map(([k, v]) => [`OS_DEFAULT__${k.toUpperCase()}`, v]));
  reference = await startReferenceIronic({ dir: scratch('ref-hw-'), port: await freePort(), release: '2025.1', env });
  const extra = Object.entries(OPTIONS).map(([k, v]) => `${k} = ${v}`).join('\n');
  candidate = await startIronicTs(scratch('ts-hw-'), await freePort(), extra);
}, { timeout: 20 * 60_000 });

after(async () => {
  await reference?.stop();
  await candidate?.stop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * The answer with each server's own address taken out of the links, and the enabled lists sorted: Ironic
 * builds them from a Python set (enabled_supported_interfaces), so their order changes with the hash seed.
 */
async function read(base: string, p: string): Promise<unknown> {
  const res = await fetch(`${base}${p}`, { headers: { 'X-OpenStack-Ironic-API-Version': VERSION } });
  assert.equal(res.status, 200, `${base}${p}`);
  return JSON.parse((await res.text()).split(base).join('<base>'), (key, value: unknown) =>
    /^enabled_\w+_interfaces$/.test(key) && Array.isArray(value) ? [...value].sort() : value);
}

test('GET /v1/drivers?detail=True lists every hardware type as 29.0.5 does', async () => {
  const [ref, ours] = await Promise.all([read(reference!.url, '/v1/drivers?detail=True'), read(candidate!.url, '/v1/drivers?detail=True')]);
  const names = (body: unknown) => (body as { drivers: { name: string }[] }).drivers.map((d) => d.name).sort();
  assert.deepEqual(names(ref), [...TYPES].sort());
  assert.deepEqual(ours, ref);
});

test('GET /v1/drivers/{name} gives each hardware type\'s interfaces and defaults as 29.0.5 does', async () => {
  for (const name of TYPES) {
    const [ref, ours] = await Promise.all([read(reference!.url, `/v1/drivers/${name}`), read(candidate!.url, `/v1/drivers/${name}`)]);
    assert.deepEqual(ours, ref, name);
  }
});
