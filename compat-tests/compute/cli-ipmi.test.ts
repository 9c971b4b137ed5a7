/**
 * The `ironic-compute` CLI lifecycle with IPMI power: the conductor drives power over real IPMI 2.0
 * (lanplus) to the project's simulated BMC, whose own power state each power step checks. The node is
 * fake-hardware with ipmitool power and management (fake-hardware takes any enabled interface; the ipmi
 * type has no fake deploy, and there is no agent here); rescue and console are absent, and the CLI
 * reports both as Nova would.
 */
import { SimBmc } from '../../src/protocols/ipmi/sim';
import { PASSWORD, USER } from '../../test/protocols/ipmi/simulators';
import { computeCliLifecycle } from './cli-lifecycle';

let bmc: SimBmc;

computeCliLifecycle({
  label: 'ipmi (simulated BMC)',
  extraConf: `enabled_hardware_types = fake-hardware,ipmi
enabled_boot_interfaces = fake,pxe
enabled_deploy_interfaces = fake,ramdisk
default_deploy_interface =
enabled_management_interfaces = fake,ipmitool
enabled_power_interfaces = fake,ipmitool
enabled_vendor_interfaces = fake,no-vendor,ipmitool
enabled_network_interfaces = noop,flat
[ipmi]
use_ipmitool_binary = false
command_retry_timeout = 3
min_command_interval = 0
[conductor]
sync_power_state_interval = 3600
power_state_change_timeout = 10`,
  async start() {
    bmc = new SimBmc({ users: [{ name: USER, password: PASSWORD, maxPriv: 4 }] });
    await bmc.start();
  },
  async stop() {
    await bmc?.stop();
  },
  nodeBody: () => ({
    driver: 'fake-hardware', power_interface: 'ipmitool', management_interface: 'ipmitool',
    console_interface: 'no-console', rescue_interface: 'no-rescue',
    driver_info: { ipmi_address: '127.0.0.1', ipmi_port: bmc.port, ipmi_username: USER, ipmi_password: PASSWORD },
  }),
  bmcPower: async () => bmc.model.power,
  rescue: false,
  console: false,
});
