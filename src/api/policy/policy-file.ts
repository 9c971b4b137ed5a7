/**
 * Operator overrides from `[oslo_policy]policy_file` (Ironic's default `policy.yaml`) and then
 * every file of each `[oslo_policy]policy_dirs` directory (default `policy.d`; files in name
 * order, dot files skipped, later rules winning), all found as oslo.config's find_file does: an
 * absolute path, else next to the config files (last first), then ~/.ironic, ~, /etc/ironic,
 * /etc. Missing files and directories mean no overrides, as in oslo.policy.
 * JSON files are read whole; YAML files in the flat form oslopolicy-sample-generator writes
 * (`"rule": "check string"` per line, `#` comments); anything else stops the start.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Config } from '../../conf/config';

/** oslo.config's find_file for a file or a directory; null when nothing of that kind exists. */
function findConfigPath(conf: Config, name: string, kind: 'file' | 'directory'): string | null {
  const isKind = (candidate: string): boolean => {
    if (!fs.existsSync(candidate)) return false;
    const stat = fs.statSync(candidate);
    return kind === 'file' ? stat.isFile() : stat.isDirectory();
  };
  if (path.isAbsolute(name)) return isKind(name) ? name : null;
  const dirs = [...conf.files].reverse().map((file) => path.dirname(path.resolve(file)));
  dirs.push(path.join(os.homedir(), '.ironic'), os.homedir(), '/etc/ironic', '/etc');
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    if (isKind(candidate)) return candidate;
  }
  return null;
}

function findPolicyFile(conf: Config): string | null {
  const name = conf.has('oslo_policy', 'policy_file') ? conf.str('oslo_policy', 'policy_file') : 'policy.yaml';
  return findConfigPath(conf, name, 'file');
}

/** The files of the policy_dirs that exist, in the order oslo.policy applies them. */
function findPolicyDirFiles(conf: Config): string[] {
  const raw = conf.raw('oslo_policy', 'policy_dirs');
  const names = Array.isArray(raw) ? raw.map(String) : [];
  return names.flatMap((name) => {
    const dir = findConfigPath(conf, name, 'directory');
    if (dir === null) return [];
    return fs.readdirSync(dir).filter((f) => !f.startsWith('.')).sort()
      .map((f) => path.join(dir, f)).filter((f) => fs.statSync(f).isFile());
  });
}

/** Every override in force: the policy file's rules, then each policy.d file's on top. */
export function policyOverrides(conf: Config): { files: string[]; rules: Map<string, string> } {
  const policyFile = findPolicyFile(conf);
  const files = [...(policyFile ? [policyFile] : []), ...findPolicyDirFiles(conf)];
  const rules = new Map<string, string>();
  for (const file of files) for (const [name, check] of parsePolicyFile(file)) rules.set(name, check);
  return { files, rules };
}

function unquote(text: string, file: string, line: number): string {
  const t = text.trim();
  if (t.length >= 2 && (t[0] === '"' || t[0] === "'") && t.endsWith(t[0])) {
    const body = t.slice(1, -1);
    return t[0] === '"' ? (JSON.parse(t) as string) : body.replace(/''/g, "'");
  }
  if (/^[|>]/.test(t)) throw new Error(`${file}:${line}: multi-line YAML values are not supported in policy files`);
  return t;
}

/** Rule name → check string. */
function parsePolicyFile(file: string): Map<string, string> {
  const text = fs.readFileSync(file, 'utf8');
  const rules = new Map<string, string>();
  if (/^\s*\{/.test(text)) {
    for (const [name, check] of Object.entries(JSON.parse(text) as Record<string, unknown>)) rules.set(name, String(check));
    return rules;
  }
  text.split('\n').forEach((raw, index) => {
    const line = raw.replace(/\s+#.*$/, '').trim();
    if (!line || line.startsWith('#') || line === '---') return;
    // The key may be quoted and contain colons (`"baremetal:node:get": "..."`).
    const m = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^:\s]+)\s*:\s*(.*)$/.exec(line);
    if (!m) throw new Error(`${file}:${index + 1}: cannot read policy line: ${raw}`);
    rules.set(unquote(m[1], file, index + 1), unquote(m[2], file, index + 1));
  });
  return rules;
}
