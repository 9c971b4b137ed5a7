/** Command-line handling shared by every command: `--config-file` (repeatable) and `--config-dir`. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Config, Overrides } from './config';

interface ParsedArgs {
  configFiles: string[];
  positional: string[];
}

/** `--name=value` as [name, value]; anything else as [arg, undefined] (the value is then the next argument). */
export function splitLongOption(arg: string): [string, string | undefined] {
  const eq = arg.indexOf('=');
  return arg.startsWith('--') && eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
}

export function parseArgs(argv: string[]): ParsedArgs {
  const configFiles: string[] = [];
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = splitLongOption(arg);
    if (flag === '--config-file' || flag === '--config-dir') {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new Error(`${flag} needs a path`);
      if (flag === '--config-file') configFiles.push(value);
      else configFiles.push(...listConfigDir(value));
    } else {
      positional.push(arg);
    }
  }
  return { configFiles, positional };
}

function listConfigDir(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.conf'))
    .sort()
    .map((f) => path.join(dir, f));
}
