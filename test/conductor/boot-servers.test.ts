// The conductor's built-in TFTP server takes its limits from [pxe]builtin_tftp_*.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Config } from '../../src/conf/config';
import { startBootServers } from '../../src/conductor/boot-servers';
import { Opcode } from '../../src/protocols/tftp/packets';
import { holdRequest, tftpGet, type HeldRequest } from '../protocols/tftp/mini-client';

async function firstAnswer(h: HeldRequest): Promise<void> {
  for (let waited = 0; h.received.length === 0; waited += 20) {
    if (waited > 10000) assert.fail('no answer from the TFTP server');
    await sleep(20);
  }
}

test('[pxe]builtin_tftp_max_transfers_per_client and builtin_tftp_max_timeout reach the TFTP server', async () => {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'boot-servers-'));
  const conf = new Config([], {
    pxe: {
      tftp_root: dir, builtin_tftp_server: true, builtin_tftp_host: '127.0.0.1', builtin_tftp_port: 0,
      builtin_tftp_max_transfers_per_client: 1, builtin_tftp_max_timeout: 2,
    },
  });
  await fsp.writeFile(path.join(dir, 'f.bin'), 'boot me');
  const servers = await startBootServers(conf);
  const held: HeldRequest[] = [];
  try {
    const port = servers.tftp!.port;
    held.push(await holdRequest(port, 'f.bin', new Map([['timeout', '3'], ['tsize', '0']])));
    await firstAnswer(held[0]!);
    const first = held[0]!.received[0]!;
    assert.ok(first.op === Opcode.OACK, 'first request served');
    assert.deepEqual([...first.options.keys()], ['tsize'], 'timeout 3 is above builtin_tftp_max_timeout');
    const second = await tftpGet(port, 'f.bin');
    assert.match(second.error?.message ?? '', /busy/i);
    const elsewhere = await tftpGet(port, 'f.bin', { bindAddress: '127.0.0.2', options: new Map([['timeout', '2']]) });
    assert.equal(elsewhere.oack?.get('timeout'), '2');
    assert.equal(elsewhere.data.toString(), 'boot me');
  } finally {
    for (const h of held) h.close();
    await servers.stop();
    await fsp.rm(dir, { recursive: true, force: true });
  }
});
