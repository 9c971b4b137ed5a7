import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { VERSION, createNode, exists, macPath, makeAvailable, provision, startBootEnv, waitForState, type BootEnv } from './support';

let env: BootEnv;

before(async () => {
  env = await startBootEnv();
});
after(async () => {
  await env?.stop();
});

async function validate(uuid: string): Promise<Record<string, { result: boolean | null; reason?: string }>> {
  const res = await env.server.request('GET', `/v1/nodes/${uuid}/validate`, { version: VERSION });
  assert.equal(res.status, 200, res.text);
  return res.json;
}

test('validate: pxe without deploy_kernel/deploy_ramdisk reports boot false with Ironic\'s reason', async () => {
  const uuid = await createNode(env, { boot_interface: 'pxe' }, ['52:54:00:aa:00:01']);
  const v = await validate(uuid);
  assert.deepEqual(v.boot, {
    result: false,
    reason: "Cannot validate PXE bootloader. Some parameters were missing in node's driver_info and configuration. Missing are: ['deploy_kernel', 'deploy_ramdisk']",
  });
  const one = await env.server.request('PATCH', `/v1/nodes/${uuid}`, { version: VERSION, body: [{ op: 'add', path: '/driver_info/deploy_kernel', value: 'http://example.com/k' }] });
  assert.equal(one.status, 200, one.text);
  assert.equal((await validate(uuid)).boot!.reason, "Cannot validate PXE bootloader. Some parameters were missing in node's driver_info and configuration. Missing are: ['deploy_ramdisk']");
});

test('validate: no port, partition image without ramdisk, bad capability, whole-disk image', async () => {
  const noPort = await createNode(env, { boot_interface: 'ipxe', driver_info: { deploy_kernel: 'k', deploy_ramdisk: 'r' } }, []);
  assert.deepEqual((await validate(noPort)).boot, { result: false, reason: `Node ${noPort} does not have any port associated with it` });

  const partition = await createNode(env, {
    boot_interface: 'pxe', driver_info: { deploy_kernel: 'k', deploy_ramdisk: 'r' }, instance_info: { kernel: 'file:///k' },
  }, ['52:54:00:aa:00:02']);
  assert.equal((await validate(partition)).boot!.reason, `Cannot validate image information for node ${partition} because one or ` +
    "more parameters are missing from its instance_info and insufficent information is present to boot from a remote volume. " +
    "Missing are: ['image_source', 'ramdisk']");

  const caps = await createNode(env, {
    boot_interface: 'pxe', driver_info: { deploy_kernel: 'k', deploy_ramdisk: 'r' }, properties: { capabilities: 'boot_mode:legacy' },
  }, ['52:54:00:aa:00:03']);
  assert.equal((await validate(caps)).boot!.reason,
    "The parameter 'boot_mode' from properties/capabilities has an invalid value: 'legacy'. Acceptable values are: bios, uefi.");

  // A whole-disk image boots locally: only the deploy ramdisk matters.
  const whole = await createNode(env, {
    boot_interface: 'pxe', driver_info: { deploy_kernel: 'k', deploy_ramdisk: 'r' }, instance_info: { image_source: 'http://example.com/disk.img' },
  }, ['52:54:00:aa:00:04']);
  assert.deepEqual((await validate(whole)).boot, { result: true });
});

test('ramdisk deploy with pxe: the instance ramdisk is network-booted (boot_ramdisk) and cleaned up on undeploy', async () => {
  const mac = '52:54:00:aa:00:05';
  const uuid = await createNode(env, {
    boot_interface: 'pxe', deploy_interface: 'ramdisk',
    driver_info: { deploy_kernel: `file://${env.images.deployKernel}`, deploy_ramdisk: `file://${env.images.deployRamdisk}` },
    instance_info: { kernel: `file://${env.images.kernel}`, ramdisk: `file://${env.images.ramdisk}`, ramdisk_kernel_arguments: 'console=ttyS0 ip=dhcp' },
    properties: { capabilities: 'boot_mode:bios' },
  }, [mac]);
  const v = await validate(uuid);
  assert.deepEqual(v.deploy, { result: true });
  assert.deepEqual(v.boot, { result: true });
  await makeAvailable(env, uuid);
  await provision(env, uuid, 'active');
  const node = await waitForState(env, uuid, 'active');
  assert.equal(node.last_error, null);
  assert.equal(node.power_state, 'power on');
  assert.equal(node.instance_info.capabilities.boot_option, 'ramdisk');
  const config = await fsp.readFile(path.join(env.tftpRoot, 'pxelinux.cfg', `01-${macPath(mac)}`), 'utf8');
  assert.match(config, /^default boot_ramdisk$/m);
  assert.match(config, new RegExp(`^append initrd=${uuid}/ramdisk root=/dev/ram0 text .*console=ttyS0 ip=dhcp`, 'm'));
  assert.deepEqual(await fsp.readFile(path.join(env.tftpRoot, uuid, 'kernel')), await fsp.readFile(env.images.kernel));
  await provision(env, uuid, 'deleted');
  const after = await waitForState(env, uuid, 'available');
  assert.equal(after.power_state, 'power off');
  assert.equal(await exists(path.join(env.tftpRoot, uuid)), false);
  assert.equal(await exists(path.join(env.tftpRoot, 'pxelinux.cfg', `01-${macPath(mac)}`)), false);
});

test('ramdisk deploy validation: a boot interface without ramdisk boot is refused', async () => {
  const uuid = await createNode(env, { boot_interface: 'redfish-virtual-media', deploy_interface: 'ramdisk' }, []);
  const v = await validate(uuid);
  assert.deepEqual(v.deploy, {
    result: false,
    reason: 'Invalid configuration: The boot interface in use does not support deployment of a ramdisk. Use a different boot interface',
  });
});
