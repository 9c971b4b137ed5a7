/**
 * redfish-virtual-media boot (drivers/modules/redfish/boot.py), for pre-built ISOs: the deploy or
 * rescue ISO (driver_info deploy_iso / rescue_iso) is inserted into the BMC's virtual CD and the
 * node boots it once; the instance then boots from disk. Building an ISO out of a kernel/ramdisk
 * pair (Ironic's image_utils) is not available in ironic-ts, so such nodes validate but cannot
 * prepare a ramdisk; the node's network data (get_node_network_data) is gathered as Ironic gathers
 * it for such an ISO, and that it cannot go onto a pre-built one is logged.
 */
import { InvalidParameterValue, MissingParameterValue } from '../../common/errors';
import { log } from '../../common/log';
import * as states from '../../common/states';
import { bootMode } from '../agent/boot-facts';
import type { BootInterface, DriverTask } from '../base';
import { connectRedfish, parseRedfishDriverInfo, redfishAction } from './common';
import { lookupTable } from '../../common/own-keys';

const PROPERTIES: Readonly<Record<string, string>> = lookupTable({
  deploy_kernel: 'URL or Glance UUID of the deployment kernel. Required if deploy_iso is not set.',
  deploy_ramdisk: 'URL or Glance UUID of the ramdisk that is mounted at boot time. Required if deploy_iso is not set.',
  deploy_iso: 'URL or Glance UUID of the deployment ISO to use. Required if deploy_kernel/deploy_ramdisk are not set.',
});

const RESCUE_LIKE_STATES = [states.RESCUING, states.RESCUEWAIT, states.RESCUEFAIL, states.UNRESCUING, states.UNRESCUEFAIL];
/** need_prepare_ramdisk: other states (e.g. takeover) must not touch the node's media. */
const PREPARE_RAMDISK_STATES = [
  states.DEPLOYING, states.DEPLOYWAIT, states.CLEANING, states.CLEANWAIT, states.RESCUING, states.RESCUEWAIT,
  states.INSPECTING, states.INSPECTWAIT,
];

type Mode = 'deploy' | 'rescue';

function modeOf(task: DriverTask): Mode {
  return RESCUE_LIKE_STATES.includes(task.node.provision_state ?? '') ? 'rescue' : 'deploy';
}

function field(task: DriverTask, name: string): unknown {
  const info = (task.node.driver_info ?? {}) as Record<string, unknown>;
  // redfish_deploy_iso / redfish_rescue_iso are the deprecated spellings.
  return info[name] || info[`redfish_${name}`] || null;
}

/** The ISO to boot, or null when the node has a kernel/ramdisk pair instead (validated here). */
function agentIso(task: DriverTask, mode: Mode): string | null {
  const iso = field(task, `${mode}_iso`);
  if (iso) return String(iso);
  const info = (task.node.driver_info ?? {}) as Record<string, unknown>;
  const conf = task.ctx.conf;
  const fromNode = info[`${mode}_kernel`] && info[`${mode}_ramdisk`];
  const pair: Array<[string, unknown]> = [
    [`${mode}_kernel`, fromNode ? info[`${mode}_kernel`] : conf.optStr('conductor', `${mode}_kernel`)],
    [`${mode}_ramdisk`, fromNode ? info[`${mode}_ramdisk`] : conf.optStr('conductor', `${mode}_ramdisk`)],
  ];
  const missing = pair.filter(([, v]) => !v).map(([k]) => `'${k}'`);
  if (missing.length) {
    throw new MissingParameterValue("Error validating Redfish virtual media. Some parameters were missing in node's " +
      `driver_info. Missing are: [${missing.join(', ')}]`);
  }
  return null;
}

/**
 * image_utils.prepare_deploy_iso: the network interface's network_data.json (and the agent's CA
 * file) would be injected into a built ISO; a pre-built one cannot carry them, which Ironic warns
 * about. Asking the network interface still reads Neutron, whose failures fail the preparation.
 */
async function noteUninjectableConfig(task: DriverTask, iso: string): Promise<void> {
  const networkData = await task.driver.network.getNodeNetworkData(task);
  const message = `Using pre-built ${bootMode(task)} ISO ${iso} for node ${task.node.uuid}, custom configuration will not be available`;
  if (Object.keys(networkData).length || task.ctx.conf.optStr('agent', 'api_ca_file')) log.warning(message);
  else log.debug(message);
}

async function ejectCd(task: DriverTask): Promise<void> {
  const { client } = await connectRedfish(task);
  await redfishAction(() => client.ejectVirtualMedia('CD'),
    (error) => `Ejecting virtual media from node ${task.node.uuid} failed. Error: ${error}`);
}

export function createRedfishVirtualMediaBoot(): BootInterface {
  return {
    kind: 'boot', name: 'redfish-virtual-media', className: 'RedfishVirtualMediaBoot',
    properties: () => ({ ...PROPERTIES }),
    async validate(task) {
      agentIso(task, modeOf(task));
      parseRedfishDriverInfo(task.node, task.ctx.conf);
    },
    async prepareRamdisk(task) {
      if (!PREPARE_RAMDISK_STATES.includes(task.node.provision_state ?? '')) return;
      const mode = modeOf(task);
      const iso = agentIso(task, mode);
      if (iso === null) {
        throw new InvalidParameterValue(`Node ${task.node.uuid} has no ${mode}_iso: building an ISO from ` +
          `${mode}_kernel/${mode}_ramdisk is not supported by this conductor`);
      }
      await task.driver.power.setPowerState(task, states.POWER_OFF);
      task.node.power_state = states.POWER_OFF;
      await task.saveNode();
      await noteUninjectableConfig(task, iso);
      const { client } = await connectRedfish(task);
      await redfishAction(async () => {
        await client.ejectVirtualMedia('CD');
        await client.insertVirtualMedia('CD', iso);
      }, (error) => `Inserting virtual media ${iso} into node ${task.node.uuid} failed. Error: ${error}`);
      await task.driver.management.setBootDevice(task, 'cdrom', false);
    },
    async cleanUpRamdisk(task) {
      await ejectCd(task);
    },
    async prepareInstance(task) {
      await ejectCd(task);
      await task.driver.management.setBootDevice(task, 'disk', true);
    },
    async cleanUpInstance(task) {
      await ejectCd(task);
    },
  };
}
