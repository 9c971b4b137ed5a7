/**
 * The boot_iscsi entry: iPXE SAN URLs from a target's connection data (get_volume_pxe_options) and
 * the rendered section of ipxe_config.template, with Ironic's lines for CHAP and extra volumes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildVolumePxeOptions } from '../../src/boot/pxe-config';
import { iscsiBootOptions, iscsiUrl, type VolumeTargetView } from '../../src/boot/volume-options';
import { renderTemplate } from '../../src/boot/templates';
import type { BootNode, PxeConf } from '../../src/boot/options';

const IQN = 'iqn.2010-10.org.openstack:volume-1';

test('iSCSI URLs: host, port, LUN in hex, IQN; portal lists and plural keys', () => {
  assert.equal(iscsiUrl({ target_portal: '192.0.2.10:3260', target_iqn: IQN, target_lun: 1 }), `iscsi:192.0.2.10::3260:1:${IQN}`);
  assert.equal(iscsiUrl({ target_portal: '192.0.2.10', target_iqn: IQN, target_lun: 26 }), `iscsi:192.0.2.10:::1a:${IQN}`);
  assert.equal(iscsiUrl({ target_portal: '[2001:db8::1]:3260', target_iqn: IQN, target_lun: 0 }), `iscsi:2001:db8::1::3260:0:${IQN}`);
  assert.equal(iscsiUrl({ target_portals: ['192.0.2.10:3260', '192.0.2.11:3260'], target_iqns: [IQN, 'other'], target_luns: [2, 3] }),
    `iscsi:192.0.2.10::3260:2:${IQN} iscsi:192.0.2.11::3260:2:${IQN}`);
});

const boot: VolumeTargetView = {
  volume_type: 'iscsi', boot_index: 0,
  properties: { target_portal: '127.0.0.1:3260', target_iqn: IQN, target_lun: 1, auth_username: 'u0', auth_password: 'p0' },
};
const data: VolumeTargetView = {
  volume_type: 'iscsi', boot_index: 1,
  properties: { target_portal: '127.0.0.1:3260', target_iqn: 'iqn.data', target_lun: 2, auth_username: 'u1', auth_password: 'p1' },
};

test('options: CHAP of the boot volume, the last iqn connector, other iSCSI volumes as further drives', () => {
  assert.deepEqual(iscsiBootOptions(boot, [boot, data], ['iqn.first', 'iqn.last']), {
    boot_from_volume: true, iscsi_boot_url: `iscsi:127.0.0.1::3260:1:${IQN}`, iscsi_initiator_iqn: 'iqn.last',
    username: 'u0', password: 'p0',
    iscsi_volumes: [{ url: 'iscsi:127.0.0.1::3260:2:iqn.data', username: 'u1', password: 'p1', drive: '0x81' }],
  });
  assert.equal(iscsiBootOptions({ ...boot, volume_type: 'fibre_channel' }, [], []), null);
  // Ironic reads the extra volumes' credentials unconditionally.
  assert.throws(() => iscsiBootOptions(boot, [{ ...data, properties: { target_portal: 'h:1', target_iqn: 'i', target_lun: 1 } }], []),
    { name: 'KeyError', message: "'auth_username'" });
});

const node: BootNode = { uuid: 'node-1', ports: [], boot_mode: 'bios', ipxe_enabled: true, deploy_kernel: '', deploy_ramdisk: '' };
const conf: PxeConf = { tftp_root: '/tftp', tftp_server: '192.0.2.1', http_root: '/http', http_url: 'http://192.0.2.1:8080' };

function bootIscsiSection(options: object): string {
  const text = renderTemplate('ipxe_config.template', { pxe_options: options, ROOT: '{{ ROOT }}', DISK_IDENTIFIER: '{{ DISK_IDENTIFIER }}' });
  return text.slice(text.indexOf(':boot_iscsi'), text.indexOf(':fail_iscsi_retry'));
}

test('the boot_iscsi entry hooks the volume with its credentials, then boots it', () => {
  const single = bootIscsiSection(buildVolumePxeOptions(node, conf, iscsiBootOptions(boot, [boot], ['iqn.node'])!));
  assert.equal(single, [':boot_iscsi', 'imgfree', 'set username u0', 'set password p0', 'set initiator-iqn iqn.node',
    `sanhook --drive 0x80 iscsi:127.0.0.1::3260:1:${IQN} || goto fail_iscsi_retry`, '', '',
    'sanboot --no-describe || goto fail_iscsi_retry', '', ''].join('\n'));
  const two = bootIscsiSection(buildVolumePxeOptions(node, conf, iscsiBootOptions(boot, [boot, data], [])!));
  assert.match(two, /sanhook --drive 0x80 .*\nset username u1\nset password p1\nsanhook --drive 0x81 iscsi:127\.0\.0\.1::3260:2:iqn\.data \|\| goto fail_iscsi_retry\nset username u0\nset password p0\nsanboot/);
  assert.ok(!two.includes('initiator-iqn'));
});

test('a config without a boot volume has no boot_iscsi entry', () => {
  const text = renderTemplate('ipxe_config.template', { pxe_options: { aki_path: 'k', ari_path: 'r' }, ROOT: '', DISK_IDENTIFIER: '' });
  assert.ok(!text.includes('boot_iscsi'));
});
