/** Byte-level pieces: message checksums, AES pad, RMCP+ trailer, 1.5 auth codes, ipmitool text. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cipherSuite } from '../../../src/protocols/ipmi/cipher-suites';
import { aesDecrypt, aesEncrypt, v15AuthCode } from '../../../src/protocols/ipmi/crypto';
import { IpmiAuthError, IpmiCompletionCodeError, IpmiIntegrityError, IpmiProtocolError, IpmiTimeoutError } from '../../../src/protocols/ipmi/errors';
import { errorFromIpmitool, parseBootParam5, parseMcInfo, parsePowerStatus } from '../../../src/protocols/ipmi/ipmitool-output';
import { decodeRequest, decodeResponse, encodeRequest, encodeResponse } from '../../../src/protocols/ipmi/message';
import { decodeV20, encodeV20 } from '../../../src/protocols/ipmi/packet-v20';
import { parseBootFlags, bootFlagsRequest } from '../../../src/protocols/ipmi/chassis';
import { SequenceWindow } from '../../../src/protocols/ipmi/sequence-window';

describe('IPMI codecs', () => {
  it('request/response frames carry valid checksums and round-trip', () => {
    const frame = encodeRequest({ netFn: 0x00, cmd: 0x01, data: Buffer.alloc(0) }, 5);
    assert.deepEqual([...frame], [0x20, 0x00, 0xe0, 0x81, 0x14, 0x01, 0x6a]);
    const req = decodeRequest(frame);
    const rsp = decodeResponse(encodeResponse(req, 0, Buffer.from([1, 0, 0, 0])));
    assert.equal(rsp.rqSeq, 5);
    assert.equal(rsp.netFn, 0x01);
    assert.deepEqual([...rsp.data], [1, 0, 0, 0]);
    const bad = encodeResponse(req, 0, Buffer.from([1]));
    bad[7] ^= 1;
    assert.throws(() => decodeResponse(bad), IpmiProtocolError);
  });

  it('AES-CBC-128 uses the IPMI pad (1,2,3..., pad length) to a block multiple', () => {
    const key = Buffer.alloc(20, 7);
    for (const len of [0, 1, 14, 15, 16, 31]) {
      const plain = Buffer.alloc(len, 0xaa);
      const enc = aesEncrypt(key, plain, Buffer.alloc(16, 1));
      assert.equal((enc.length - 16) % 16, 0);
      assert.deepEqual(aesDecrypt(key, enc), plain);
    }
  });

  it('RMCP+ packets are 4-byte aligned before the MAC and reject tampering', () => {
    const keys = { suite: cipherSuite(17), k1: Buffer.alloc(32, 1), k2: Buffer.alloc(32, 2) };
    const pkt = encodeV20(0, 0x11223344, 9, Buffer.from([1, 2, 3]), keys);
    assert.equal((pkt.length - 4 - 16) % 4, 0);
    const decoded = decodeV20(pkt, keys);
    assert.deepEqual([...decoded.payload], [1, 2, 3]);
    assert.equal(decoded.seq, 9);
    const tampered = Buffer.from(pkt);
    tampered[tampered.length - 1] ^= 1;
    assert.throws(() => decodeV20(tampered, keys), IpmiIntegrityError);
    assert.throws(() => decodeV20(encodeV20(0, 1, 1, Buffer.from([1])), keys), IpmiIntegrityError);
    assert.throws(() => decodeV20(pkt.subarray(0, 12), keys), IpmiProtocolError);
  });

  it('IPMI 1.5 auth codes: straight password is the padded password, MD5 is 16 bytes', () => {
    assert.deepEqual(v15AuthCode('password', 'abc', 1, 2, Buffer.alloc(0)), Buffer.concat([Buffer.from('abc'), Buffer.alloc(13)]));
    assert.equal(v15AuthCode('md5', 'abc', 1, 2, Buffer.from([1])).length, 16);
    assert.equal(v15AuthCode('none', 'abc', 1, 2, Buffer.from([1])).length, 0);
  });

  it('boot flags encode persistence and EFI the way Ironic raw bytes do', () => {
    assert.deepEqual([...bootFlagsRequest('pxe', true, true).data], [0x05, 0xe0, 0x04, 0, 0, 0]);
    assert.deepEqual([...bootFlagsRequest('disk', false, true).data], [0x05, 0xa0, 0x08, 0, 0, 0]);
    assert.deepEqual(parseBootFlags(Buffer.from([1, 5, 0xc0, 0x0c, 0, 0, 0])), { device: 'safe', persistent: true, efi: false });
    assert.deepEqual(parseBootFlags(Buffer.from([1, 5, 0x80, 0x00, 0, 0, 0])), { device: null, persistent: false, efi: false });
  });

  it('sequence window accepts each number once and rejects stale ones', () => {
    const w = new SequenceWindow();
    assert.ok(w.accept(10));
    assert.ok(!w.accept(10));
    assert.ok(w.accept(8));
    assert.ok(w.accept(40));
    assert.ok(!w.accept(20));
    assert.ok(!w.accept(0));
  });

  it('parses ipmitool output and maps its errors to typed errors', () => {
    assert.equal(parsePowerStatus('Chassis Power is on\n'), 'on');
    const boot = parseBootParam5(
      ' Boot Flags :\n   - Boot Flag Valid\n   - Options apply to all future boots\n   - BIOS EFI boot \n   - Boot Device Selector : Force Boot from default Hard-Drive, request Safe-Mode\n',
    );
    assert.deepEqual(boot, { device: 'safe', persistent: true, efi: true });
    const id = parseMcInfo('Device ID                 : 32\nDevice Revision           : 1\nFirmware Revision         : 9.08\nIPMI Version              : 2.0\nManufacturer ID           : 4753\nProduct ID                : 3842 (0x0f02)\n');
    assert.deepEqual(id, { deviceId: 32, deviceRevision: 1, firmwareMajor: 9, firmwareMinor: 8, ipmiVersion: '2.0', manufacturerId: 4753, productId: 3842 });
    assert.ok(errorFromIpmitool('x', 1, '> RAKP 2 HMAC is invalid\nError: Unable to establish IPMI v2 / RMCP+ session', 1000) instanceof IpmiAuthError);
    assert.ok(errorFromIpmitool('x', 1, 'Get Auth Capabilities error\nError: Unable to establish IPMI v2 / RMCP+ session', 1000) instanceof IpmiTimeoutError);
    const cc = errorFromIpmitool('x', 1, 'Set Chassis Power Control to Diag failed: Invalid data field in request', 1000);
    assert.ok(cc instanceof IpmiCompletionCodeError && cc.code === 0xcc);
    const raw = errorFromIpmitool('x', 1, 'Unable to send RAW command (channel=0x0 netfn=0x0 lun=0x0 cmd=0x8 rsp=0xd4): Insufficient privilege level', 1000);
    assert.ok(raw instanceof IpmiAuthError || (raw instanceof IpmiCompletionCodeError && raw.code === 0xd4));
  });
});
