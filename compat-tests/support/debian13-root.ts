/**
 * The project's Debian 13 root (scripts/debian13-root.sh) as the compat tests use it: packages made
 * present (the root builds itself on first use), and commands that run a program inside it.
 */
import { execFile } from 'node:child_process';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..', '..');
const ROOT_SCRIPT = path.join(REPO, 'scripts', 'debian13-root.sh');

/** Builds the root if needed and installs those of `packages` it lacks (first time: minutes). */
export function ensureDebian13(packages: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(ROOT_SCRIPT, ['ensure', ...packages], { timeout: 1_800_000 }, (err, _out, stderr) =>
      err ? reject(new Error(`building the Debian 13 root failed: ${String(stderr)}`)) : resolve());
  });
}

/** The command running `file args` inside the root, with each of `binds` mounted at its own path. */
export function inDebian13(binds: readonly string[], file: string, args: readonly string[]): [string, string[]] {
  return [ROOT_SCRIPT, ['run', ...binds.flatMap((dir) => ['--bind', dir]), file, ...args]];
}
