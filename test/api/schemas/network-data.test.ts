/**
 * node network_data validation against python-jsonschema with Ironic's own network-data schema
 * (Debian's python3-ironic, the reference): the same documents pass and fail, and where the message
 * does not quote a regular expression it is the same message.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { bestMatch, iterErrors } from '../../../src/api/schemas/jsonschema';
import { NETWORK_DATA_SCHEMA } from '../../../src/api/schemas/network-data';

const IRONIC_SCHEMA = '/usr/lib/python3/dist-packages/ironic/api/controllers/v1/network-data-schema.json';

const phys = { id: 'eth0', type: 'phy', ethernet_mac_address: '52:54:00:aa:00:01', mtu: 1500 };
const bond = { id: 'bond0', type: 'bond', ethernet_mac_address: '52:54:00:aa:00:02', bond_mode: 'active-backup', bond_links: ['eth0'] };
const vlan = { id: 'vlan10', type: 'vlan', vlan_mac_address: '52:54:00:aa:00:03', vlan_link: 'bond0', vlan_id: 10 };
const v4 = {
  id: 'n4', type: 'ipv4', link: 'vlan10', network_id: 'a', ip_address: '192.0.2.10', netmask: '255.255.255.0',
  routes: [{ network: '0.0.0.0', netmask: '0.0.0.0', gateway: '192.0.2.1', services: [{ type: 'dns', address: '192.0.2.53' }] }],
};
const v6 = { id: 'n6', type: 'ipv6', link: 'eth0', network_id: 'b', ip_address: '2001:db8::10/64', netmask: 'ffff:ffff:ffff:ffff::' };
const dhcp = { id: 'n7', type: 'ipv4_dhcp', link: 'eth0', network_id: 'c' };
const good = { links: [phys, bond, vlan], networks: [v4, v6, dhcp], services: [{ type: 'dns', address: '8.8.8.8' }, { type: 'dns', address: '2001:4860::8888' }] };
const one = (key: string, item: unknown) => ({ ...good, [key]: [item] });

const DOCUMENTS: unknown[] = [
  good, { links: [], networks: [], services: [] }, {}, { links: 'x' }, { links: [], networks: [] }, [], 'text',
  one('links', { ...phys, type: 'wifi' }), one('links', { ...phys, ethernet_mac_address: 'nope' }), one('links', { colour: 'red' }),
  one('links', { ...phys, mtu: 0 }), one('links', { ...phys, mtu: null }), one('links', { ...phys, mtu: 70000 }),
  one('links', { ...bond, bond_mode: 'sideways' }), one('links', { ...bond, bond_links: [1] }),
  one('links', { ...vlan, vlan_id: '10' }), one('links', { ...vlan, vlan_id: undefined }),
  one('networks', { ...v4, ip_address: '300.1.1.1' }), one('networks', { ...v4, netmask: '255.0.255.0' }),
  one('networks', { ...v4, type: 'ipv5' }), one('networks', { ...v4, routes: [{ network: '0.0.0.0', netmask: '0.0.0.0' }] }),
  one('networks', { ...v6, ip_address: 'fe80::1%eth0' }), one('networks', { ...v6, ip_address: '::ffff:192.0.2.1' }),
  one('networks', { ...v6, type: 'ipv6_dhcp', ip_address: 'zz::1' }), one('networks', { id: 'x' }),
  one('services', { type: 'ntp', address: '192.0.2.1' }), one('services', { type: 'dns' }), one('services', { type: 'dns', address: 'x' }),
];

/** python-jsonschema's best_match message for each document under Ironic's schema (null when valid). */
function referenceMessages(): Array<string | null> {
  const script = `
import json, sys, jsonschema
schema = json.load(open(${JSON.stringify(IRONIC_SCHEMA)}))
out = []
for doc in json.load(sys.stdin):
    try:
        jsonschema.validate(doc, schema)
        out.append(None)
    except jsonschema.ValidationError as e:
        out.append(e.message)
print(json.dumps(out))
`;
  const docs = JSON.stringify(DOCUMENTS);
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script], { input: docs, encoding: 'utf8' })) as Array<string | null>;
}

function ours(doc: unknown): string | null {
  return bestMatch(iterErrors(JSON.parse(JSON.stringify(doc)), NETWORK_DATA_SCHEMA))?.message ?? null;
}

describe('network_data against Ironic\'s network-data schema', { skip: fs.existsSync(IRONIC_SCHEMA) ? false : 'python3-ironic not installed' }, () => {
  it('accepts and refuses the same documents, with the same messages', () => {
    const expected = referenceMessages();
    assert.equal(expected.length, DOCUMENTS.length);
    DOCUMENTS.forEach((doc, i) => {
      const actual = ours(doc);
      const label = `document ${i}: ${JSON.stringify(doc).slice(0, 160)}`;
      assert.equal(actual === null, expected[i] === null, `${label}\n  ours: ${actual}\n  ironic: ${expected[i]}`);
      // A failed pattern quotes the expression itself, which is spelled differently here.
      if (expected[i] !== null && !expected[i]!.includes(' does not match ')) assert.equal(actual, expected[i], label);
    });
  });
});
