import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { renderTftpdHpaConfig, writeTftpdHpaConfig } from '../../../src/protocols/tftp/tftpd-hpa';

test('tftpd-hpa defaults file points at tftp_root with --secure and a map file', () => {
  const f = renderTftpdHpaConfig({ tftp_root: '/tftpboot/', address: '0.0.0.0:69' });
  assert.match(f.defaults, /^TFTP_DIRECTORY="\/tftpboot"$/m);
  assert.match(f.defaults, /^TFTP_ADDRESS="0.0.0.0:69"$/m);
  assert.match(f.defaults, /^TFTP_OPTIONS="--secure --map-file \/tftpboot\/map-file"$/m);
  assert.deepEqual(f.mapFile.trim().split('\n'), ['re ^/tftpboot/(.*) \\1', 're ^/+(.*) \\1']);
});

test('map rules strip the root prefix and a leading slash', () => {
  const f = renderTftpdHpaConfig({ tftp_root: '/srv/tftp' });
  const rules = f.mapFile.trim().split('\n').map((l) => {
    const [, re, rep] = l.split(' ');
    return { re: new RegExp(re!), rep: rep!.replace('\\1', '$1') };
  });
  const apply = (name: string) => {
    for (const r of rules) if (r.re.test(name)) return name.replace(r.re, r.rep);
    return name;
  };
  assert.equal(apply('/srv/tftp/pxelinux.0'), 'pxelinux.0');
  assert.equal(apply('/pxelinux.cfg/01-aa'), 'pxelinux.cfg/01-aa');
  assert.equal(apply('undionly.kpxe'), 'undionly.kpxe');
});

test('writeTftpdHpaConfig writes both files', async () => {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'tftpd-hpa-'));
  try {
    const p = await writeTftpdHpaConfig({ tftp_root: '/tftpboot' }, dir);
    assert.match(await fsp.readFile(p.defaultsPath, 'utf8'), /TFTP_USERNAME="tftp"/);
    assert.match(await fsp.readFile(p.mapPath, 'utf8'), /^re /);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
});
