/**
 * The cinder and external storage interfaces on their own: validate's rules and messages
 * (storage/cinder.py, storage/external.py in 29.0.5), the connector handed to Cinder, and
 * should_write_image. The Cinder round trips are in compat-tests/deploy/cinder-boot-from-volume.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DriverTask } from '../../../src/drivers/base';
import type { VolumeConnectorRecord, VolumeTargetRecord } from '../../../src/db/models';
import { createCinderStorage, generateConnector } from '../../../src/drivers/storage/cinder';
import { createExternalStorage } from '../../../src/drivers/storage/external';

const NODE = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123';
const PREFIX = `Failed to validate cinder storage interface for node ${NODE}. `;

let ids = 0;
const connector = (type: string, connectorId: string | null): VolumeConnectorRecord =>
  ({ id: ++ids, uuid: `c-${ids}`, node_id: 1, type, connector_id: connectorId, extra: {} }) as VolumeConnectorRecord;
const target = (volumeType: string | null, bootIndex: number, volumeId: string | null = 'vol-1'): VolumeTargetRecord =>
  ({ id: ++ids, uuid: `t-${ids}`, node_id: 1, volume_type: volumeType, boot_index: bootIndex, volume_id: volumeId, properties: {}, extra: {} }) as VolumeTargetRecord;

interface TaskSpec {
  connectors?: VolumeConnectorRecord[];
  targets?: VolumeTargetRecord[];
  capabilities?: string;
  bootCapabilities?: string[];
  instanceInfo?: Record<string, unknown>;
}

function task(spec: TaskSpec): DriverTask {
  return {
    node: {
      uuid: NODE, provision_state: 'available', instance_info: spec.instanceInfo ?? {},
      properties: spec.capabilities === undefined ? {} : { capabilities: spec.capabilities },
    },
    volumeConnectors: spec.connectors ?? [], volumeTargets: spec.targets ?? [],
    driver: { boot: { capabilities: spec.bootCapabilities ?? ['iscsi_volume_boot', 'ramdisk_boot', 'ipxe_boot'] } },
  } as unknown as DriverTask;
}

const validate = (spec: TaskSpec) => createCinderStorage().validate(task(spec));

test('a node with iSCSI connectors and targets that match its capability validates', async () => {
  await validate({ connectors: [connector('iqn', 'iqn.2024-01.org.example:n1')], targets: [target('iscsi', 0)], capabilities: 'iscsi_boot:true' });
  await validate({ connectors: [connector('iqn', 'iqn.x')], targets: [target('iscsi', 1)] });
  await validate({});
});

test('iSCSI needs an iPXE-capable boot interface', async () => {
  await assert.rejects(validate({ connectors: [connector('iqn', 'iqn.x')], bootCapabilities: ['ramdisk_boot', 'pxe_boot'] }), {
    name: 'InvalidParameterValue',
    message: `${PREFIX}The [pxe]/ipxe_enabled option must be set to True or the boot interface must be set to \`\`ipxe\`\` to support ` +
      'network booting to an iSCSI volume.',
  });
});

test('a boot capability needs a connector of its kind', async () => {
  await assert.rejects(validate({ capabilities: 'iscsi_boot:true' }), {
    name: 'InvalidParameterValue',
    message: `${PREFIX}In order to enable the 'iscsi_boot' capability for the node, an associated volume_connector type must be valid for iSCSI (iqn).`,
  });
  await assert.rejects(validate({ capabilities: 'fibre_channel_boot:True' }), {
    message: `${PREFIX}In order to enable the 'fibre_channel_boot' capability for the node, an associated volume_connector type must ` +
      'be valid for Fibre Channel (wwpn, wwnn).',
  });
  // A connector without an id does not count.
  await assert.rejects(validate({ connectors: [connector('iqn', null)], capabilities: 'iscsi_boot:yes' }), { name: 'InvalidParameterValue' });
});

test('wwpn and wwnn connectors come in pairs (a StorageError)', async () => {
  await assert.rejects(validate({ connectors: [connector('wwpn', '21:00:00:24:ff:00:00:01')] }), {
    name: 'StorageError',
    message: `${PREFIX}Cinder requires both wwnn and wwpn entries for FCoE connections. There must be a wwpn entry for every wwnn ` +
      'entry. There are 1 wwpn entries and 0 wwnn entries.',
  });
});

test('targets are checked against the capabilities and connectors', async () => {
  const iqn = connector('iqn', 'iqn.x');
  const noCap = target('iscsi', 0);
  await assert.rejects(validate({ connectors: [iqn], targets: [noCap] }), {
    message: `${PREFIX}Volume target ${noCap.uuid} is configured for 'iscsi', however the capability 'iscsi_boot' is not set for the node.`,
  });
  const data = target('iscsi', 1);
  await assert.rejects(validate({ targets: [data] }), {
    message: `${PREFIX}Volume target ${data.uuid} is configured for 'iscsi', however no iSCSI connectors are configured for the node.`,
  });
  const fc = target('fibre_channel', 0);
  await assert.rejects(validate({ targets: [fc] }), {
    message: `${PREFIX}Volume target ${fc.uuid} is configured for 'fibre_channel', however the capability 'fibre_channel_boot' is not set on node.`,
  });
  const fcData = target('fibre_channel', 1);
  await assert.rejects(validate({ targets: [fcData] }), {
    message: `${PREFIX}Volume target ${fcData.uuid} is configured for 'fibre_channel', however no Fibre Channel WWPNs are configured for ` +
      'the node volume connectors.',
  });
  const odd = target('nvme', 1);
  await assert.rejects(validate({ targets: [odd] }), {
    message: `${PREFIX}Volume target ${odd.uuid} is of an unknown type 'nvme'. Supported types: 'iscsi' or 'fibre_channel'`,
  });
  const noVolume = target('iscsi', 1, null);
  await assert.rejects(validate({ connectors: [iqn], targets: [noVolume] }), {
    message: `${PREFIX}volume_id missing from target ${noVolume.uuid}.`,
  });
});

test('the connector names the first initiator, ip, every WWN and the node; several connectors ask for multipath', () => {
  assert.deepEqual(generateConnector(task({ connectors: [connector('iqn', 'iqn.a')] })), { initiator: 'iqn.a', host: NODE });
  assert.deepEqual(generateConnector(task({ connectors: [
    connector('iqn', 'iqn.a'), connector('ip', '192.0.2.5'), connector('iqn', 'iqn.b'),
    connector('wwpn', 'p1'), connector('wwnn', 'n1'), connector('wwpn', 'p2'), connector('mac', '52:54:00:00:00:01'),
  ] })), { initiator: 'iqn.a', ip: '192.0.2.5', wwpns: ['p1', 'p2'], wwnns: ['n1'], host: NODE, multipath: true });
  assert.throws(() => generateConnector(task({ connectors: [connector('ip', '192.0.2.5')] })), {
    name: 'StorageError',
    message: `Insufficient or incompatible volume connection records for node ${NODE}. Valid connector types: wwpn, wwnn, iqn`,
  });
});

test('no image is written for a boot volume, unless the instance names an image', () => {
  for (const storage of [createCinderStorage(), createExternalStorage()]) {
    assert.equal(storage.shouldWriteImage(task({ targets: [target('iscsi', 0)] })), false);
    assert.equal(storage.shouldWriteImage(task({ targets: [target('iscsi', 1)] })), true);
    assert.equal(storage.shouldWriteImage(task({ targets: [target('iscsi', 0)], instanceInfo: { image_source: 'glance://x' } })), true);
  }
});

test('external storage boots a volume only through iPXE', async () => {
  const external = createExternalStorage();
  await external.validate(task({ targets: [target('iscsi', 0)] }));
  await external.validate(task({ targets: [target('iscsi', 1)], bootCapabilities: [] }));
  await assert.rejects(external.validate(task({ targets: [target('iscsi', 0)], bootCapabilities: ['ramdisk_boot', 'pxe_boot'] })), {
    name: 'InvalidParameterValue',
    message: `Failed to validate external storage interface for node ${NODE}. To support network booting to an iSCSI volume, the ` +
      'boot interface must be set to ``ipxe``.',
  });
});
