/**
 * The `cinder` storage interface (drivers/modules/storage/cinder.py CinderStorage). validate
 * checks the node's connectors and targets against its iscsi_boot / fibre_channel_boot
 * capabilities and the boot interface; attach gives Cinder the node's connector (its iqn,
 * ip, wwpns, wwnns) for every target's volume and stores each connection's data in the
 * targets' properties; a failed attach is undone by a detach. Detaching is retried
 * ([cinder]action_retries, action_retry_interval) and only warns while the node is active.
 */
import { InvalidParameterValue, IronicError, StorageError } from '../../common/errors';
import { log } from '../../common/log';
import type { JsonObject } from '../../common/json-value';
import { boolFromString } from '../../common/python/bool-from-string';
import * as states from '../../common/states';
import type { NodeRecord } from '../../db/models';
import * as targetsRepo from '../../db/repositories/volume-targets';
import { attachVolumes, detachVolumes, type AttachedVolume } from '../../volumes/cinder';
import type { DriverTask, StorageInterface } from '../base';
import { writesImage } from './boot-volume';
import { setTimeout as sleep } from 'node:timers/promises';

const VALID_ISCSI_TYPES = ['iqn'];
const VALID_FC_TYPES = ['wwpn', 'wwnn'];

type ErrorClass = new (message: string) => IronicError;

function failValidation(task: DriverTask, reason: string, Err: ErrorClass = InvalidParameterValue): never {
  const message = `Failed to validate cinder storage interface for node ${task.node.uuid}. ${reason}`;
  log.error(message);
  throw new Err(message);
}

/** driver utils.get_node_capability: the value of `name` in properties/capabilities ("k:v,k:v"). */
function nodeCapability(node: NodeRecord, name: string): string | undefined {
  const capabilities = (node.properties ?? {}).capabilities;
  if (typeof capabilities !== 'string' || !capabilities) return undefined;
  for (const item of capabilities.split(',')) {
    const parts = item.split(':');
    if (parts.length === 2 && parts[0] && parts[1]) {
      if (parts[0].trim() === name) return parts[1].trim();
    } else {
      log.warning(`Ignoring malformed capability '${item}'. Format should be 'key:val'.`);
    }
  }
  return undefined;
}

interface FoundTypes { iscsi: boolean; fc: boolean }

function validateConnectors(task: DriverTask): FoundTypes {
  const ipxe = (task.driver.boot.capabilities ?? []).includes('ipxe_boot');
  const iscsiUuids: string[] = [];
  let wwpns = 0;
  let wwnns = 0;
  for (const connector of task.volumeConnectors) {
    if (connector.connector_id === null) continue;
    if (VALID_ISCSI_TYPES.includes(connector.type ?? '')) {
      iscsiUuids.push(connector.uuid);
      if (!ipxe) {
        failValidation(task, 'The [pxe]/ipxe_enabled option must be set to True or the boot interface must be set to ' +
          '``ipxe`` to support network booting to an iSCSI volume.');
      }
    }
    if (connector.type === 'wwpn') wwpns += 1;
    if (connector.type === 'wwnn') wwnns += 1;
  }
  if (iscsiUuids.length > 1) {
    log.warning(`Multiple possible iSCSI connectors, ${JSON.stringify(iscsiUuids)} found, for node ${task.node.uuid}. ` +
      `Only the first iSCSI connector, ${iscsiUuids[0]}, will be utilized.`);
  }
  if (wwpns !== wwnns) {
    failValidation(task, 'Cinder requires both wwnn and wwpn entries for FCoE connections. There must be a wwpn entry for ' +
      `every wwnn entry. There are ${wwpns} wwpn entries and ${wwnns} wwnn entries.`, StorageError);
  }
  return { fc: wwpns >= 1, iscsi: iscsiUuids.length >= 1 };
}

function validateTargets(task: DriverTask, found: FoundTypes, iscsiBoot: boolean, fcBoot: boolean): void {
  for (const target of task.volumeTargets) {
    if (target.volume_id === null) failValidation(task, `volume_id missing from target ${target.uuid}.`);
    if (target.volume_type === 'fibre_channel') {
      if (!fcBoot && target.boot_index === 0) {
        failValidation(task, `Volume target ${target.uuid} is configured for 'fibre_channel', however the capability ` +
          "'fibre_channel_boot' is not set on node.");
      }
      if (!found.fc) {
        failValidation(task, `Volume target ${target.uuid} is configured for 'fibre_channel', however no Fibre Channel ` +
          'WWPNs are configured for the node volume connectors.');
      }
    } else if (target.volume_type === 'iscsi') {
      if (!iscsiBoot && target.boot_index === 0) {
        failValidation(task, `Volume target ${target.uuid} is configured for 'iscsi', however the capability 'iscsi_boot' ` +
          'is not set for the node.');
      }
      if (!found.iscsi) {
        failValidation(task, `Volume target ${target.uuid} is configured for 'iscsi', however no iSCSI connectors are ` +
          'configured for the node.');
      }
    } else {
      failValidation(task, `Volume target ${target.uuid} is of an unknown type '${String(target.volume_type)}'. ` +
        "Supported types: 'iscsi' or 'fibre_channel'");
    }
  }
}

async function validate(task: DriverTask): Promise<void> {
  const found = validateConnectors(task);
  const iscsiBoot = boolFromString(nodeCapability(task.node, 'iscsi_boot'));
  const fcBoot = boolFromString(nodeCapability(task.node, 'fibre_channel_boot'));
  if (iscsiBoot && !found.iscsi) {
    failValidation(task, "In order to enable the 'iscsi_boot' capability for the node, an associated volume_connector " +
      `type must be valid for iSCSI (${VALID_ISCSI_TYPES.join(', ')}).`);
  }
  if (fcBoot && !found.fc) {
    failValidation(task, "In order to enable the 'fibre_channel_boot' capability for the node, an associated " +
      `volume_connector type must be valid for Fibre Channel (${VALID_FC_TYPES.join(', ')}).`);
  }
  validateTargets(task, found, iscsiBoot, fcBoot);
}

/** _generate_connector: what Cinder needs to know to export to the node. */
export function generateConnector(task: DriverTask): JsonObject {
  const data: JsonObject = {};
  const wwpns: string[] = [];
  const wwnns: string[] = [];
  let valid = false;
  for (const connector of task.volumeConnectors) {
    const type = connector.type ?? '';
    if (type.includes('iqn') && !Object.hasOwn(data, 'initiator')) {
      data.initiator = connector.connector_id;
      valid = true;
    } else if (type.includes('ip') && !Object.hasOwn(data, 'ip')) {
      data.ip = connector.connector_id;
    } else if (type.includes('wwpn')) {
      if (!Object.hasOwn(data, 'wwpns')) data.wwpns = wwpns;
      wwpns.push(String(connector.connector_id));
      valid = true;
    } else if (type.includes('wwnn')) {
      if (!Object.hasOwn(data, 'wwnns')) data.wwnns = wwnns;
      wwnns.push(String(connector.connector_id));
      valid = true;
    } else {
      log.warning(`Node ${task.node.uuid} has a volume_connector (${connector.uuid}) defined with an unsupported type: ${type}.`);
    }
  }
  if (!valid) {
    const message = `Insufficient or incompatible volume connection records for node ${task.node.uuid}. Valid connector ` +
      `types: ${[...VALID_FC_TYPES, ...VALID_ISCSI_TYPES].join(', ')}`;
    log.error(message);
    throw new StorageError(message);
  }
  // Cinder drivers mostly log the host; Ironic names the node.
  data.host = task.node.uuid;
  if (task.volumeConnectors.length > 1 && Object.keys(data).length > 1) data.multipath = true;
  return data;
}

const volumeIds = (task: DriverTask): string[] => task.volumeTargets.map((t) => String(t.volume_id));

/** detach_volumes, retried on StorageError; errors are only warnings while active or on a repeated abort. */
async function detach(task: DriverTask, connector: JsonObject | null = null, abortingAttach = false): Promise<void> {
  const targets = volumeIds(task);
  if (targets.length === 0) return;
  const conn = connector ?? generateConnector(task);
  const conf = task.ctx.conf;
  const retries = Math.max(0, conf.int('cinder', 'action_retries'));
  const intervalMs = conf.int('cinder', 'action_retry_interval') * 1000;
  let attempt = 0;
  for (let tries = 1; ; tries++) {
    const allowErrors = task.node.provision_state === states.ACTIVE || (abortingAttach && attempt > 0);
    try {
      await detachVolumes(conf, task.node, targets, conn, allowErrors);
      return;
    } catch (err) {
      if (!(err instanceof StorageError)) throw err;
      const message = `${abortingAttach ? 'Error on aborting volume detach' : 'Error detaching volume'} for node ` +
        `${task.node.uuid}: ${err.message}.`;
      if (attempt < retries) {
        attempt += 1;
        log.warning(`${message} Re-attempting detachment.`);
      } else {
        log.error(message);
      }
      if (tries > retries) throw err;
    }
    await sleep(intervalMs);
  }
}

/** Stores each new connection's data in the properties of every target of its volume. */
async function recordConnections(task: DriverTask, connected: AttachedVolume[]): Promise<void> {
  for (const volume of connected) {
    if (volume.already_attached) continue;
    const volumeUuid = String(volume.data.ironic_volume_uuid);
    for (const target of await targetsRepo.list(task.ctx.db, { volume_id: volumeUuid })) {
      await targetsRepo.update(task.ctx.db, target.id, { properties: volume.data });
      const held = task.volumeTargets.find((t) => t.id === target.id);
      if (held) held.properties = volume.data;
    }
  }
}

async function attach(task: DriverTask): Promise<void> {
  const targets = volumeIds(task);
  if (targets.length === 0) return;
  const connector = generateConnector(task);
  let connected: AttachedVolume[];
  try {
    connected = await attachVolumes(task.ctx.conf, task.node, targets, connector);
  } catch (err) {
    if (err instanceof StorageError) {
      log.error(`Error attaching volumes for node ${task.node.uuid}: ${err.message}`);
      await detach(task, connector, true);
    }
    throw err;
  }
  if (targets.length !== connected.length) {
    log.error(`The number of volumes defined for node ${task.node.uuid} does not match the number of attached volumes. ` +
      'Attempting detach and abort operation.');
    await detach(task, connector, true);
    throw new StorageError(`Mismatch between the number of configured volume targets for node ${task.node.uuid} and the ` +
      'number of completed attachments.');
  }
  await recordConnections(task, connected);
}

export function createCinderStorage(): StorageInterface {
  return {
    kind: 'storage', name: 'cinder', className: 'CinderStorage',
    properties: () => ({}),
    validate,
    attachVolumes: attach,
    detachVolumes: (task) => detach(task),
    shouldWriteImage: writesImage,
  };
}
