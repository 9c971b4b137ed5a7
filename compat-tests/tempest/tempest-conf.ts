/**
 * tempest.conf for ironic-tempest-plugin's API tests against one ironic-ts behind a real Keystone:
 * dynamic credentials made by Keystone's bootstrap admin (system-scoped where the plugin enforces
 * scope), only the baremetal service, fake-hardware, every microversion ironic-ts serves.
 */
import { MAX_MINOR, MIN_MINOR, versionString } from '../../src/api/versions';

export interface TempestSite {
  /** Scratch folder (logs, locks, the conf itself). */
  work: string;
  keystoneUrl: string;
  adminPassword: string;
}

/**
 * [DEFAULT] lines for the ironic-ts under test: as devstack's ironic jobs, the ipmi hardware type
 * beside fake-hardware (the plugin switches a node's driver to ipmi and resets its interfaces).
 */
export const IRONIC_HARDWARE_CONF = `enabled_hardware_types = fake-hardware,ipmi
enabled_boot_interfaces = fake,pxe
enabled_deploy_interfaces = fake,direct
enabled_management_interfaces = fake,ipmitool
enabled_power_interfaces = fake,ipmitool
`;

export function tempestConf(site: TempestSite): string {
  return `[DEFAULT]
log_dir = ${site.work}
log_file = tempest.log
[auth]
use_dynamic_credentials = true
admin_username = admin
admin_password = ${site.adminPassword}
admin_project_name = admin
admin_domain_name = Default
admin_system = all
[identity]
uri_v3 = ${site.keystoneUrl}/v3
auth_version = v3
region = RegionOne
[identity-feature-enabled]
api_v2 = false
[service_available]
ironic = true
nova = false
neutron = false
glance = false
cinder = false
swift = false
[baremetal]
driver = fake-hardware
min_microversion = ${versionString(MIN_MINOR)}
max_microversion = ${versionString(MAX_MINOR)}
[enforce_scope]
ironic = true
[oslo_concurrency]
lock_path = ${site.work}/locks
`;
}
