/**
 * The `ironic-compute` CLI lifecycle with Redfish power: the conductor drives power through the
 * project's Redfish emulator, whose system's own power state each power step checks. The node is
 * fake-hardware with redfish power, management and virtual media boot (fake-hardware takes any enabled
 * interface; the redfish type has no fake deploy, and there is no agent here); rescue and console are
 * absent, and the CLI reports both as Nova would.
 */
import { startRedfishEmulator, RedfishEmulator } from '../../src/emulators/redfish';
import { computeCliLifecycle } from './cli-lifecycle';

const USER = 'admin';
const PASSWORD = 'secret';
let bmc: RedfishEmulator;

computeCliLifecycle({
  label: 'redfish (emulator)',
  extraConf: `enabled_hardware_types = fake-hardware,redfish
enabled_boot_interfaces = fake,redfish-virtual-media
enabled_deploy_interfaces = fake,ramdisk
default_deploy_interface =
enabled_management_interfaces = fake,redfish
enabled_power_interfaces = fake,redfish
enabled_network_interfaces = noop,flat
[redfish]
connection_attempts = 1
connection_retry_interval = 1
[conductor]
sync_power_state_interval = 3600
power_state_change_timeout = 10`,
  async start() {
    bmc = await startRedfishEmulator({ systems: ['1'], auth: { username: USER, password: PASSWORD } });
  },
  async stop() {
    await bmc?.stop();
  },
  nodeBody: () => ({
    driver: 'fake-hardware', boot_interface: 'redfish-virtual-media', power_interface: 'redfish',
    management_interface: 'redfish', console_interface: 'no-console', rescue_interface: 'no-rescue',
    driver_info: { redfish_address: bmc.url, redfish_username: USER, redfish_password: PASSWORD, redfish_system_id: '/redfish/v1/Systems/1' },
  }),
  bmcPower: async () => (bmc.system('1').powerState === 'On' ? 'on' : 'off'),
  rescue: false,
  console: false,
});
