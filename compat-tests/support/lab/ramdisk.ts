/** The deploy ramdisk (scripts/ironic-ramdisk.sh): built on first use (minutes), cached after. */
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import type { LabRamdisk } from './ironic';

const SCRIPT = path.resolve(__dirname, '..', '..', '..', '..', 'scripts', 'ironic-ramdisk.sh');

export function ensureRamdisk(): Promise<LabRamdisk> {
  return new Promise((resolve, reject) => {
    execFile('bash', [SCRIPT, 'build'], { timeout: 3_600_000 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`building the deploy ramdisk failed: ${String(stderr)}`));
      const dir = String(stdout).trim();
      resolve({ kernel: path.join(dir, 'ironic-agent.kernel'), initramfs: path.join(dir, 'ironic-agent.initramfs') });
    });
  });
}
