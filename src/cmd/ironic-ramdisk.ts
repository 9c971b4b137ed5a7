/**
 * `ironic-ramdisk build | path`: the deploy ramdisk (a Debian 13 kernel and an initramfs with
 * ironic-python-agent 10.2), built and cached by scripts/ironic-ramdisk.sh; prints the directory
 * holding ironic-agent.kernel and ironic-agent.initramfs, for driver_info deploy_kernel/deploy_ramdisk.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const SCRIPT = path.resolve(__dirname, '..', '..', '..', 'scripts', 'ironic-ramdisk.sh');
const USAGE = 'usage: ironic-ramdisk build | path\n' +
  '  build  build the deploy kernel and initramfs unless cached (needs root, debootstrap; minutes)\n' +
  '  path   print the cache directory of the current inputs, built or not\n';

const [verb, ...rest] = process.argv.slice(2);
if ((verb !== 'build' && verb !== 'path') || rest.length) {
  process.stderr.write(USAGE);
  process.exit(verb === '--help' || verb === '-h' ? 0 : 2);
}
const result = spawnSync('bash', [SCRIPT, verb], { stdio: 'inherit' });
process.exit(result.status ?? 1);
