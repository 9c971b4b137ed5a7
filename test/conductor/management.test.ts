/**
 * Boot mode and secure boot changes through the conductor (manager.change_node_boot_mode and
 * utils.node_change_boot_mode): fake-hardware's management, like 21.4.4's FakeManagement, has no
 * boot mode control, so the change ends in last_error with Ironic's text and the node keeps its
 * unknown mode; each new request starts by clearing the previous error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { conductorFixture, waitForNode } from './support';

const fx = conductorFixture('mgmt-host');

const UNSUPPORTED = (extension: string) =>
  `Driver fake-hardware does not support ${extension} (disabled or not implemented).`;

test('a boot mode change the driver cannot make is recorded in last_error, mode unchanged', async () => {
  const node = await fx.svc.api.createNode({ name: 'mode', driver: 'fake-hardware' });
  await fx.svc.api.changeNodeBootMode(node.uuid, 'uefi');
  const after = await waitForNode(fx.tmp.db, node.uuid, (n) => n.last_error !== null && n.reservation === null);
  assert.equal(after.last_error, `Failed to change boot mode to 'uefi: ${UNSUPPORTED('set_boot_mode')}`);
  assert.equal(after.boot_mode, null);
});

test('a secure boot change spells the target as Python does, and a new request replaces the old error', async () => {
  const node = await fx.svc.api.createNode({ name: 'secure', driver: 'fake-hardware' });
  await fx.svc.api.changeNodeSecureBoot(node.uuid, true);
  const first = await waitForNode(fx.tmp.db, node.uuid, (n) => n.last_error !== null && n.reservation === null);
  assert.equal(first.last_error, `Failed to change secure_boot state to 'True': ${UNSUPPORTED('set_secure_boot_state')}`);
  assert.equal(first.secure_boot, null);
  await fx.svc.api.changeNodeSecureBoot(node.uuid, false);
  const second = await waitForNode(fx.tmp.db, node.uuid,
    (n) => n.last_error !== null && n.last_error.includes("'False'") && n.reservation === null);
  assert.equal(second.last_error, `Failed to change secure_boot state to 'False': ${UNSUPPORTED('set_secure_boot_state')}`);
});
