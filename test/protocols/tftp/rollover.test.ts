// A real client across the 16-bit block number wrap: 65,546 lock-step
// round trips, so it lives in its own file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { promises as fsp } from 'node:fs';
import * as crypto from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import { start } from '../../../src/protocols/tftp/server';

const run = promisify(execFile);

test('curl (blksize 8) downloads a file of more than 65535 blocks', async () => {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'tftp-rollover-'));
  const server = await start({ root: dir, port: 0 });
  try {
    const big = crypto.randomBytes(65536 * 8 + 77);
    await fsp.writeFile(path.join(dir, 'big.bin'), big);
    const out = path.join(dir, 'out.bin');
    await run('curl', ['-sS', '--max-time', '55', '--tftp-blksize', '8', '-o', out, `tftp://127.0.0.1:${server.port}/big.bin`]);
    assert.deepEqual(await fsp.readFile(out), big);
  } finally {
    await server.close();
    await fsp.rm(dir, { recursive: true, force: true });
  }
});
