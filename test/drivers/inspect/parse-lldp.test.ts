/**
 * The parse-lldp hook on the TLVs of Ironic 29.0.5's own unit tests (test_parse_lldp.py): the
 * 802.1AB basic set, 802.1Q and 802.3, first-wins duplicates, malformed TLVs skipped.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DriverTask, JsonObject } from '../../../src/drivers/base';
import { parseLldpHook } from '../../../src/drivers/inspect/hooks/parse-lldp';

const task = { node: { uuid: '1be26c0b-03f2-4d2e-ae87-c02d7f33c123' } } as unknown as DriverTask;

async function parse(interfaces: unknown[], pluginData: JsonObject = {}): Promise<JsonObject> {
  await parseLldpHook.run!(task, { interfaces } as JsonObject, pluginData);
  return pluginData;
}

const ALL_TLVS = [
  [1, '04112233aabbcc'], [2, '07373334'], [3, '003c'],
  [4, '686f737430322e6c61622e656e6720706f7274203320' + '28426f6e6429'],
  [5, '737730312d646973742d31622d623132'],
  [6, '4e6574776f726b732c20496e632e20353530302c2076657273696f' +
    '6e203132204275696c6420646174653a20323031342d30332d31332030' + '383a33383a33302055544320'],
  [7, '00140014'], [8, '0501c000020f020000000000'], [8, '110220010db885a3000000008a2e03707334020000000000'],
  [8, '0706aa11bb22cc3302000003e900'], [127, '00120f01036c110010'], [127, '00120f030300000002'],
  [127, '00120f0405ea'], [127, '0080c2010066'], [127, '0080c20206000a'], [127, '0080c202060014'],
  [127, '0080c204080026424203000000'], [127, '0080c203006507766c616e313031'],
  [127, '0080c203006607766c616e313032'], [127, '0080c203006807766c616e313034'], [127, '0080c2060058'], [0, ''],
];

describe('parse-lldp hook', () => {
  it('decodes every supported TLV, preferring lldp_raw to the inventory', async () => {
    const data = await parse([{ name: 'em1', lldp: [[0, '']] }], { lldp_raw: { em1: ALL_TLVS } });
    assert.deepEqual(JSON.parse(JSON.stringify(data.parsed_lldp)), {
      em1: {
        switch_chassis_id: '11:22:33:aa:bb:cc',
        switch_port_id: '734',
        switch_port_description: 'host02.lab.eng port 3 (Bond)',
        switch_system_name: 'sw01-dist-1b-b12',
        switch_system_description: 'Networks, Inc. 5500, version 12 Build date: 2014-03-13 08:38:30 UTC ',
        switch_capabilities_support: ['Bridge', 'Router'],
        switch_capabilities_enabled: ['Bridge', 'Router'],
        switch_mgmt_addresses: ['192.0.2.15', '2001:db8:85a3::8a2e:370:7334', 'aa:11:bb:22:cc:33'],
        switch_port_autonegotiation_enabled: true,
        switch_port_autonegotiation_support: true,
        switch_port_physical_capabilities: ['1000BASE-T fdx', '100BASE-TX fdx', '100BASE-TX hdx', '10BASE-T fdx',
          '10BASE-T hdx', 'Asym and Sym PAUSE fdx'],
        switch_port_mau_type: '100BASE-TX full duplex',
        switch_port_link_aggregation_enabled: true,
        switch_port_link_aggregation_support: true,
        switch_port_link_aggregation_id: 2,
        switch_port_mtu: 1514,
        switch_port_untagged_vlan_id: 102,
        switch_port_protocol_vlan_enabled: true,
        switch_port_protocol_vlan_support: true,
        switch_port_protocol_vlan_ids: [10, 20],
        switch_protocol_identities: ['0026424203000000'],
        switch_port_vlans: [{ name: 'vlan101', id: 101 }, { name: 'vlan102', id: 102 }, { name: 'vlan104', id: 104 }],
        switch_port_management_vlan_id: 88,
      },
    });
  });

  it('reads chassis IDs given as an address or a name, and keeps the first of duplicates', async () => {
    const data = await parse([
      { name: 'em1', lldp: [[1, '0501c000020f']] },
      { name: 'em2', lldp: [[1, '0773773031']] },
      { name: 'em3', lldp: [[1, '04112233aabbcc'], [1, '04332211ddeeff'], [2, '07373334'], [2, '07373435']] },
      { name: 'em4' },
    ]);
    assert.deepEqual(JSON.parse(JSON.stringify(data.parsed_lldp)), {
      em1: { switch_chassis_id: '192.0.2.15' },
      em2: { switch_chassis_id: 'sw01' },
      em3: { switch_chassis_id: '11:22:33:aa:bb:cc', switch_port_id: '734' },
    });
  });

  it('skips unknown, truncated and invalid TLVs without storing anything', async () => {
    for (const lldp of [
      [[10, '04112233aabbcc'], [12, '07373334'], [128, '00120f080300010000']],
      [[127, '00906901425030323134323530393236'], [127, '23ac0074657374'], [127, '00120e010300010000']],
      [[127, '00120f04'], [127, '0080c201'], [127, '0080c206']],
      [[8, '0501'], [8, '0507c000020f020000000000'], [8, '0506']],
      [[127, '00120f01036c11FFFF'], [127, '00120f01036c11'], [127, '00120f01036c']],
      [[127, '00120f0303'], [127, '00120f03']],
      [[5, 'ff'], [4, 123]],
    ]) {
      const data = await parse([{ name: 'em1', lldp }]);
      assert.equal(Object.hasOwn(data, 'parsed_lldp'), false, JSON.stringify(lldp));
    }
  });

  it('mirrors 29.0.5: 802.1/802.3 TLVs before any basic one are lost, small IPv6 values print as IPv4', async () => {
    const data = await parse([
      { name: 'em1', lldp: [[127, '0080c2010066'], [5, '6869'], [127, '0080c2010067'], [127, '00120f0405ea']] },
      { name: 'em2', lldp: [[127, '0080c2010066']] },
      { name: 'em3', lldp: [[2, '0402000000000000000000000000ffff0001'], [1, '0502fe800000000000000000000000000001']] },
    ]);
    assert.deepEqual(JSON.parse(JSON.stringify(data.parsed_lldp)), {
      em1: { switch_system_name: 'hi', switch_port_untagged_vlan_id: 103, switch_port_mtu: 1514 },
      em3: { switch_port_id: '255.255.0.1', switch_chassis_id: 'fe80::1' },
    });
  });

  it('fails the hook on an ID subtype Ironic cannot decode (None.value)', async () => {
    await assert.rejects(parse([{ name: 'em1', lldp: [[1, '0905aa']] }]), { name: 'AttributeError' });
  });

  it('keeps empty strings and drops truncated ones', async () => {
    const data = await parse([{ name: 'em1', lldp: [[1, '04'], [4, ''], [5, ''], [6, ''], [127, '0080c203006507']] }]);
    assert.deepEqual(JSON.parse(JSON.stringify(data.parsed_lldp)),
      { em1: { switch_port_description: '', switch_system_name: '', switch_system_description: '' } });
  });

  it('stores interface names from the ramdisk as data, never as object keys with meaning', async () => {
    const data = await parse([{ name: '__proto__', lldp: [[5, '7377']] }, { name: 'constructor', lldp: [[5, '7378']] }]);
    const parsed = data.parsed_lldp as Record<string, unknown>;
    assert.deepEqual(Object.keys(parsed), ['__proto__', 'constructor']);
    assert.deepEqual(JSON.parse(JSON.stringify(parsed)), {
      ['__proto__']: { switch_system_name: 'sw' }, constructor: { switch_system_name: 'sx' },
    });
    assert.equal(({} as Record<string, unknown>).switch_system_name, undefined);
  });

  it('fails on a value that is not hexadecimal, as binascii does', async () => {
    await assert.rejects(parse([{ name: 'em1', lldp: [[1, 'zz']] }]), { name: 'Error', message: 'Non-hexadecimal digit found' });
    await assert.rejects(parse([{ name: 'em1', lldp: [[1, 'abc']] }]), { name: 'Error', message: 'Odd-length string' });
  });
});
