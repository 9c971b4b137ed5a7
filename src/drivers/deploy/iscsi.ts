/**
 * The `iscsi` deploy, as the design this project comes from describes it (Ironic's ISCSIDeploy
 * before IPA, nova-baremetal's deploy helper): the node PXE-boots a small deploy ramdisk whose
 * kernel line carries the target IQN and a one-time key; the ramdisk exports its disk over iSCSI
 * and POSTs "ready" to the conductor (src/conductor/iscsi-callback.ts), which resumes the deploy
 * steps: deploy (100, reboot into the ramdisk, then wait call-back), write_image (80, the disk
 * written over iSCSI as work_on_disk did), prepare_instance_boot (60, PXE switched to `boot`),
 * switch_to_tenant_network (30), boot_instance (20, the ramdisk told "done": it reboots).
 */
import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { InstanceDeployFailure, InvalidParameterValue, MissingParameterValue } from '../../common/errors';
import { log } from '../../common/log';
import { lookupTable } from '../../common/own-keys';
import * as states from '../../common/states';
import { decodeConfigDrive, fetchConfigDrive, getConfigDriveImage, type ConfigDriveInput } from '../../images/configdrive';
import { notifyDone } from '../../protocols/deploy-helper/server';
import type { DeployInterface, DriverTask, JsonObject } from '../base';
import { ironicApiUrl } from '../agent/agent-options';
import { updateImageType } from '../agent/deploy-steps';
import {
  addAdminPassToConfigdrive, cacheNodeImage, destroyHttpInstanceImages, injectableExtraData, nodeImagePath,
} from '../agent/instance-image';
import { bootModeOf, bootOptionOf } from '../boot/pxe-node';
import { coreDeployStep, declareSteps, type DeclaredStep } from '../declared-steps';
import { DiskWriteError, workOnDisk } from '../iscsi/work-on-disk';
import { useKernelInitiator, withKernelSession } from '../iscsi/iscsiadm';
import { TargetIoError, type IscsiTarget } from '../iscsi/target';
import { OUT_OF_BAND_CLEAN_AND_SERVICE } from './out-of-band-only';
import { switchToTenantNetwork } from './tenant-network';

const PROPERTIES: Record<string, string> = lookupTable({
  deploy_kernel: 'UUID (from Glance) of the deployment kernel. Required.',
  deploy_ramdisk: 'UUID (from Glance) of the ramdisk that is mounted at boot time. Required.',
});

const MIB_PER_GIB = 1024;

/** The IQN the ramdisk exports its disk as (the design's iqn.2008-10.org.openstack:<node>). */
export const targetIqn = (nodeUuid: string) => `iqn.2008-10.org.openstack:${nodeUuid}`;

/** How the callback's key is kept: only its digest is stored, so no view or log can show it. */
export const keyDigest = (key: string) => createHash('sha256').update(key).digest('hex');

type Dict = Record<string, unknown>;

function intField(ii: Dict, name: string): number {
  const v = ii[name];
  if (v === undefined || v === null || v === '') return 0;
  const n = typeof v === 'number' ? v : Number(String(v));
  if (!Number.isInteger(n) || n < 0) throw new InvalidParameterValue(`${name} must be a non-negative integer, not ${String(v)}`);
  return n;
}

/** iscsi_deploy.validate: the pxe boot interface, an image, and root_gb for partition images. */
async function validate(task: DriverTask): Promise<void> {
  if (task.driver.boot.name !== 'pxe') {
    throw new InvalidParameterValue("The iscsi deploy boots its ramdisk with the pxe boot interface (its config's " +
      `deploy and boot entries); node ${task.node.uuid} has boot interface ${task.driver.boot.name}`);
  }
  if (bootModeOf(task) !== 'bios') {
    throw new InvalidParameterValue(`The iscsi deploy's PXE config is pxelinux's, for BIOS boot; node ${task.node.uuid} ` +
      'boots in uefi mode (set capabilities boot_mode:bios or [deploy]default_boot_mode = bios)');
  }
  await task.driver.boot.validate(task);
  const ii = (task.node.instance_info ?? {}) as Dict;
  const missing = ['image_source', ...(bootOptionOf(task) === 'local' ? [] : ['root_gb'])].filter((k) => !ii[k]);
  if (missing.length) {
    throw new MissingParameterValue(`Node ${task.node.uuid} failed to validate deploy image info. Some parameters were ` +
      `missing. Missing are: [${missing.map((k) => `'instance_info.${k}'`).join(', ')}]`);
  }
  for (const name of ['root_gb', 'swap_mb', 'ephemeral_gb']) intField(ii, name);
}

/** The ramdisk's kernel arguments: which disk, which IQN, and how to prove itself on callback. */
function ramdiskParams(task: DriverTask, key: string): JsonObject {
  const conf = task.ctx.conf;
  return {
    disk: conf.str('iscsi', 'disk_devices'),
    iscsi_target_iqn: targetIqn(task.node.uuid),
    deployment_id: task.node.uuid,
    deployment_key: key,
    ironic_api_url: ironicApiUrl(task),
  };
}

async function prepare(task: DriverTask): Promise<void> {
  const node = task.node;
  if (node.provision_state === states.ACTIVE || node.provision_state === states.ADOPTING) {
    if (node.provision_state === states.ACTIVE) await task.driver.boot.prepareInstance(task);
    return;
  }
  if (node.provision_state !== states.DEPLOYING) return;
  await task.driver.network.validate(task);
  await task.powerAction(states.POWER_OFF);
  await task.driver.network.unconfigureTenantNetworks(task);
  await task.driver.network.addProvisioningNetwork(task);
  const inject = injectableExtraData(task.extraData);
  updateImageType(task);
  addAdminPassToConfigdrive(task, inject?.admin_pass);
  // Raw on the conductor: written as is, and blkid reads the root filesystem's UUID from it.
  await cacheNodeImage(task, node.instance_info ?? {}, inject, true);
  const key = randomBytes(24).toString('hex');
  node.driver_internal_info = { ...(node.driver_internal_info ?? {}), iscsi_key_digest: keyDigest(key) };
  await task.saveNode();
  await task.driver.boot.prepareRamdisk(task, ramdiskParams(task, key), 'deploy');
}

async function deployStep(task: DriverTask): Promise<string> {
  await task.powerAction(states.REBOOT);
  return states.DEPLOYWAIT;
}

async function configdriveBytes(task: DriverTask): Promise<Buffer | null> {
  const source = (task.node.instance_info ?? {}).configdrive as ConfigDriveInput | undefined | null;
  if (source === undefined || source === null) return null;
  const image = await getConfigDriveImage(source, task.node);
  return /^https?:\/\//i.test(image) ? fetchConfigDrive(image) : decodeConfigDrive(image);
}

/** write_image: the disk written through the target the ramdisk exported; the root's UUID recorded. */
async function writeImage(task: DriverTask): Promise<null> {
  const conf = task.ctx.conf;
  const info = task.node.driver_internal_info ?? {};
  const address = info.iscsi_ramdisk_address;
  if (typeof address !== 'string') throw new InstanceDeployFailure(`Node ${task.node.uuid}: the deploy ramdisk never called back`);
  const ii = (task.node.instance_info ?? {}) as Dict;
  const workDir = await fsp.mkdtemp(path.join(os.tmpdir(), `iscsi-${task.node.uuid}-`));
  try {
    const wholeDisk = info.is_whole_disk_image !== false;
    const target: IscsiTarget = { address, port: conf.int('iscsi', 'portal_port'), iqn: targetIqn(task.node.uuid), lun: 1 };
    const timeoutMs = conf.int('iscsi', 'write_timeout') * 1000;
    const job = {
      target,
      image: nodeImagePath(conf, task.node.uuid),
      wholeDisk,
      rootMb: intField(ii, 'root_gb') * MIB_PER_GIB,
      swapMb: intField(ii, 'swap_mb'),
      ephemeralMb: intField(ii, 'ephemeral_gb') * MIB_PER_GIB,
      ephemeralFormat: typeof ii.ephemeral_format === 'string' ? ii.ephemeral_format : conf.str('pxe', 'default_ephemeral_format'),
      configdrive: await configdriveBytes(task),
      workDir,
      timeoutMs,
    };
    const kernel = await useKernelInitiator(conf.str('iscsi', 'initiator'));
    log.info(`Writing node ${task.node.uuid}'s disk through ${kernel ? 'the kernel\'s initiator (iscsiadm)' : 'qemu-img\'s libiscsi'}`);
    const rootUuid = kernel
      ? await withKernelSession(target, { verifyAttempts: conf.int('iscsi', 'verify_attempts'), timeoutMs },
        (device) => workOnDisk({ ...job, target: { ...target, device } }))
      : await workOnDisk(job);
    task.node.driver_internal_info = { ...(task.node.driver_internal_info ?? {}), root_uuid_or_disk_id: rootUuid };
    await task.saveNode();
    log.info(`Image written over iSCSI to node ${task.node.uuid} (${address}); root ${rootUuid}`);
    return null;
  } catch (err) {
    if (err instanceof DiskWriteError || err instanceof TargetIoError) {
      throw new InstanceDeployFailure(`Deploy to ${address} failed for node ${task.node.uuid}: ${err.message}`);
    }
    throw err;
  } finally {
    await fsp.rm(workDir, { recursive: true, force: true });
  }
}

async function prepareInstanceBoot(task: DriverTask): Promise<null> {
  await task.driver.boot.prepareInstance(task);
  return null;
}

/** boot_instance: the ramdisk, told "done", stops its target and reboots into the instance. */
async function bootInstance(task: DriverTask): Promise<null> {
  const info = task.node.driver_internal_info ?? {};
  const address = String(info.iscsi_ramdisk_address);
  try {
    await notifyDone(address, task.ctx.conf.int('iscsi', 'ramdisk_port'));
  } catch (err) {
    log.warning(`The deploy ramdisk of node ${task.node.uuid} at ${address} did not take "done" ` +
      `(${(err as Error).message}); rebooting the node instead.`);
    await task.powerAction(states.REBOOT);
  }
  const { iscsi_key_digest: _key, iscsi_ramdisk_address: _addr, ...rest } = task.node.driver_internal_info ?? {};
  task.node.driver_internal_info = rest;
  await task.saveNode();
  return null;
}

const STEPS: readonly DeclaredStep[] = [
  coreDeployStep(deployStep),
  { step: 'write_image', kinds: ['deploy'], priority: 80, run: writeImage },
  { step: 'prepare_instance_boot', kinds: ['deploy'], priority: 60, run: prepareInstanceBoot },
  { step: 'switch_to_tenant_network', kinds: ['deploy'], priority: 30, run: async (t) => { await switchToTenantNetwork(t); return null; } },
  { step: 'boot_instance', kinds: ['deploy'], priority: 20, run: bootInstance },
];

export function createIscsiDeploy(): DeployInterface {
  return {
    kind: 'deploy', name: 'iscsi', className: 'ISCSIDeploy',
    properties: () => ({ ...PROPERTIES }),
    validate,
    ...declareSteps('deploy', STEPS),
    async tearDown(task) {
      await task.powerAction(states.POWER_OFF);
      await task.driver.network.unconfigureTenantNetworks(task);
      await task.driver.network.removeProvisioningNetwork(task);
      return states.DELETED;
    },
    prepare,
    async cleanUp(task) {
      await task.driver.boot.cleanUpRamdisk(task, 'deploy');
      await task.driver.boot.cleanUpInstance(task);
      await destroyHttpInstanceImages(task.ctx.conf, task.node.uuid);
    },
    async takeOver(task) {
      if (bootOptionOf(task) !== 'local') await task.driver.boot.prepareInstance(task);
    },
    ...OUT_OF_BAND_CLEAN_AND_SERVICE,
    // The design's ramdisk has no agent: it calls back once, on the deploy helper's port.
    async heartbeat() {},
  };
}
