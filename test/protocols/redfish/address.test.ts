// redfish_address and redfish_system_id parsing, in the forms Ironic accepts.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RedfishClient, RedfishConfigError, parseRedfishAddress, systemPathFromId } from '../../../src/protocols/redfish';

describe('parseRedfishAddress', () => {
  it('defaults to https and /redfish/v1/ for a bare host', () => {
    assert.deepEqual(parseRedfishAddress('bmc.example.com'), {
      origin: 'https://bmc.example.com', protocol: 'https:', hostname: 'bmc.example.com', port: 443, rootPrefix: '/redfish/v1/',
    });
  });

  it('keeps host:port (names and IPv4) under https', () => {
    const named = parseRedfishAddress('bmc.example.com:8443');
    assert.equal(named.origin, 'https://bmc.example.com:8443');
    assert.equal(named.port, 8443);
    assert.equal(parseRedfishAddress('10.1.2.3:8000').origin, 'https://10.1.2.3:8000');
  });

  it('honours an explicit scheme and default ports', () => {
    assert.equal(parseRedfishAddress('http://10.1.2.3').port, 80);
    assert.equal(parseRedfishAddress('http://10.1.2.3:8000/').origin, 'http://10.1.2.3:8000');
    assert.equal(parseRedfishAddress('HTTPS://Bmc:443').origin, 'https://bmc');
  });

  it('wraps bare IPv6 and accepts bracketed IPv6 with a port', () => {
    const bare = parseRedfishAddress('fd00::1');
    assert.equal(bare.origin, 'https://[fd00::1]');
    assert.equal(bare.hostname, 'fd00::1');
    assert.equal(parseRedfishAddress('[fd00::1]:8443').port, 8443);
  });

  it('takes a path as the service root prefix', () => {
    assert.equal(parseRedfishAddress('https://bmc/redfish/v1').rootPrefix, '/redfish/v1/');
    assert.equal(parseRedfishAddress('https://bmc/custom/root/').rootPrefix, '/custom/root/');
  });

  it('rejects what is not a Redfish endpoint', () => {
    for (const bad of ['', '   ', 'ftp://bmc', 'https://user:pw@bmc', 'https://bmc/?x=1', 'https://bmc/#frag', 'http://']) {
      assert.throws(() => parseRedfishAddress(bad), RedfishConfigError, bad);
    }
  });
});

describe('systemPathFromId', () => {
  it('uses a path as is and quotes it', () => {
    assert.equal(systemPathFromId('/redfish/v1/Systems/1', '/redfish/v1/'), '/redfish/v1/Systems/1');
    assert.equal(systemPathFromId('/redfish/v1/Systems/System Embedded', '/redfish/v1/'), '/redfish/v1/Systems/System%20Embedded');
  });

  it('puts a bare id under the Systems collection', () => {
    assert.equal(systemPathFromId('System.Embedded.1', '/redfish/v1/'), '/redfish/v1/Systems/System.Embedded.1');
    assert.equal(systemPathFromId('a/b', '/x/'), '/x/Systems/a%2Fb');
  });

  it('rejects an empty id', () => {
    assert.throws(() => systemPathFromId(' ', '/redfish/v1/'), RedfishConfigError);
  });
});

describe('RedfishClient.optionsFromDriverInfo', () => {
  it('maps the redfish_* driver_info fields', () => {
    assert.deepEqual(RedfishClient.optionsFromDriverInfo({
      redfish_address: 'https://bmc:8443', redfish_username: 'admin', redfish_password: 'pw',
      redfish_auth_type: 'session', redfish_verify_ca: '/etc/ssl/bmc-ca.pem', redfish_system_id: '/redfish/v1/Systems/1',
    }), {
      address: 'https://bmc:8443', username: 'admin', password: 'pw', authType: 'session', verifyCa: '/etc/ssl/bmc-ca.pem', systemId: '/redfish/v1/Systems/1',
    });
  });

  it('defaults to auto auth and verification, and requires an address', () => {
    const opts = RedfishClient.optionsFromDriverInfo({ redfish_address: 'bmc' });
    assert.equal(opts.authType, 'auto');
    assert.equal(opts.verifyCa, true);
    assert.equal(opts.systemId, null);
    assert.throws(() => RedfishClient.optionsFromDriverInfo({}), RedfishConfigError);
    assert.throws(() => RedfishClient.optionsFromDriverInfo({ redfish_address: 'bmc', redfish_verify_ca: 3 }), RedfishConfigError);
  });
});
