// Starts the reference Ironic (support/reference-ironic.ts) for the differential harness.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startReferenceIronic } from '../support/reference-ironic';
import { removeDir, ServerStartError, type ServerHandle } from './server-handle';

/**
 * A conductor's `alive` depends on the time since its last heartbeat, and on SQLite 29.0.5 (like
 * ironic-ts) does not heartbeat: `alive` turns false heartbeat_timeout after start. The two servers
 * run their case lists at their own pace, so both get a timeout no run reaches.
 */
export const DIFFERENTIAL_HEARTBEAT_TIMEOUT = 86_400;

export async function startReference(label: string, port: number): Promise<ServerHandle> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'difftest-ref-'));
  const keepDir = process.env['DIFFTEST_KEEP_DIRS'] !== undefined;
  const env = { OS_CONDUCTOR__HEARTBEAT_TIMEOUT: String(DIFFERENTIAL_HEARTBEAT_TIMEOUT) };
  const { stop } = await startReferenceIronic({ dir, port, env }).catch((err: Error) => {
    if (!keepDir) removeDir(dir);
    throw new ServerStartError(label, err.message);
  });
  return {
    label,
    port,
    dir,
    logPath: path.join(dir, 'ironic.log'),
    stop: async () => {
      await stop();
      if (!keepDir) removeDir(dir);
    },
  };
}
