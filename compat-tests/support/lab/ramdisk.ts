/**
 * The lab's ramdisks, built on first use by their scripts and cached after: the deploy ramdisk with
 * IPA (scripts/ironic-ramdisk.sh, minutes) and the iscsi deploy's (scripts/iscsi-ramdisk.sh, seconds).
 */
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import type { LabRamdisk } from './ironic';

const SCRIPTS = path.resolve(__dirname, '..', '..', '..', '..', 'scripts');

/** Runs `<script> build`, which prints the directory holding `<name>.kernel` and `<name>.initramfs`. */
function built(script: string, name: string, timeoutMs: number): Promise<LabRamdisk> {
  return new Promise((resolve, reject) => {
    execFile('bash', [path.join(SCRIPTS, script), 'build'], { timeout: timeoutMs }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`${script} build failed: ${String(stderr)}`));
      const dir = String(stdout).trim();
      resolve({ kernel: path.join(dir, `${name}.kernel`), initramfs: path.join(dir, `${name}.initramfs`) });
    });
  });
}

export const ensureRamdisk = (): Promise<LabRamdisk> => built('ironic-ramdisk.sh', 'ironic-agent', 3_600_000);

export const ensureIscsiRamdisk = (): Promise<LabRamdisk> => built('iscsi-ramdisk.sh', 'iscsi-deploy', 1_800_000);
