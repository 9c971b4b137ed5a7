// Starts the reference Ironic (support/reference-ironic.ts) for the differential harness.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startReferenceIronic } from '../support/reference-ironic';
import { removeDir, ServerStartError, type ServerHandle } from './server-handle';

export async function startReference(label: string, port: number): Promise<ServerHandle> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'difftest-ref-'));
  const keepDir = process.env['DIFFTEST_KEEP_DIRS'] !== undefined;
  const { stop } = await startReferenceIronic({ dir, port }).catch((err: Error) => {
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
