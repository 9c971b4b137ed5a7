import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Config } from '../../src/conf/config';
import { applyLabMode, defaultDhcpRange, labInterface } from '../../src/conf/lab';
import { DriverFactory } from '../../src/drivers/driver-factory';

async function confWith(text: string): Promise<Config> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'lab-conf-'));
  const file = path.join(dir, 'ironic.conf');
  await fsp.writeFile(file, text);
  const conf = new Config([file]);
  await fsp.rm(dir, { recursive: true, force: true });
  return conf;
}

test('the default DHCP range is the upper half of the subnet, without its broadcast address', () => {
  assert.equal(defaultDhcpRange({ name: 'br0', address: '192.0.2.1', prefix: 24 }, '1h'), '192.0.2.128,192.0.2.254,255.255.255.0,1h');
  assert.equal(defaultDhcpRange({ name: 'br0', address: '10.20.30.40', prefix: 16 }, '12h'), '10.20.128.0,10.20.255.254,255.255.0.0,12h');
  assert.throws(() => defaultDhcpRange({ name: 'br0', address: '192.0.2.1', prefix: 30 }, '1h'), /too small for DHCP/);
});

test('the provisioning interface is read with its IPv4 address and prefix', () => {
  assert.deepEqual(labInterface('lo'), { name: 'lo', address: '127.0.0.1', prefix: 8 });
  assert.throws(() => labInterface('no-such-if0'), /no network interface named no-such-if0/);
});

test('lab mode fills the options the file leaves unset and keeps those it sets', async () => {
  const conf = await confWith(`[DEFAULT]
state_path = /srv/lab
enabled_deploy_interfaces = direct
[lab]
provisioning_interface = lo
[deploy]
builtin_http_port = 8181
`);
  assert.deepEqual(applyLabMode(conf), { name: 'lo', address: '127.0.0.1', prefix: 8 });
  assert.equal(conf.str('dhcp', 'dhcp_provider'), 'dnsmasq');
  assert.equal(conf.str('dnsmasq', 'dhcp_hostsdir'), '/srv/lab/lab/dnsmasq/hostsdir.d');
  assert.equal(conf.bool('pxe', 'builtin_tftp_server'), true);
  assert.equal(conf.str('pxe', 'tftp_server'), '127.0.0.1');
  assert.equal(conf.bool('deploy', 'builtin_http_server'), true);
  assert.equal(conf.str('deploy', 'http_url'), 'http://127.0.0.1:8181');
  assert.deepEqual(conf.list('DEFAULT', 'enabled_hardware_types'), ['ipmi', 'redfish']);
  assert.deepEqual(conf.list('DEFAULT', 'enabled_boot_interfaces'), ['ipxe', 'pxe', 'redfish-virtual-media']);
  assert.deepEqual(conf.list('DEFAULT', 'enabled_deploy_interfaces'), ['direct']);
  assert.equal(conf.str('DEFAULT', 'rpc_transport'), 'none');
  // Every enabled hardware type has a default for each interface, or the conductor would refuse to start.
  assert.ok(new DriverFactory(conf).conductorInterfaceRows('lab').some((r) => r.hardware_type === 'redfish' && r.default));
});

test('without [lab]provisioning_interface nothing changes', async () => {
  const conf = await confWith('[DEFAULT]\nstate_path = /srv/x\n');
  assert.equal(applyLabMode(conf), null);
  assert.equal(conf.has('dhcp', 'dhcp_provider'), false);
  assert.equal(conf.bool('pxe', 'builtin_tftp_server'), false);
});

test('a provisioning interface that does not exist stops the start with its name', async () => {
  const conf = await confWith('[lab]\nprovisioning_interface = no-such-if0\n');
  assert.throws(() => applyLabMode(conf), /\[lab\]provisioning_interface: no network interface named no-such-if0/);
});
