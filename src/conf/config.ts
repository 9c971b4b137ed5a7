/**
 * The loaded configuration: file values over registry defaults, with oslo-style `$option`
 * interpolation. Typed getters fail loudly when code asks for an option the registry lacks.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';
import { parseIni, IniEntry } from './ini';
import { OPTIONS, findOption, GroupName, OptionName, OptionSpec, OptionValue } from './registry';
import { parseOptionValue, InvalidOptionValue } from './values';

export { InvalidOptionValue };

export type Overrides = Record<string, Record<string, OptionValue>>;

export class Config {
  private readonly values = new Map<string, OptionValue>();
  readonly warnings: string[] = [];

  constructor(readonly files: string[] = [], overrides: Overrides = {}) {
    for (const [group, options] of Object.entries(overrides)) {
      for (const [name, value] of Object.entries(options)) this.values.set(key(group, name), value);
    }
    this.loadFiles(files);
  }

  private loadFiles(files: string[]): void {
    const grouped = new Map<string, { group: string; name: string; spec: OptionSpec; raw: string[] }>();
    for (const file of files) {
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch (err) {
        throw new Error(`Cannot read config file ${file}: ${(err as Error).message}`);
      }
      for (const entry of parseIni(text, file)) this.collect(entry, grouped);
    }
    for (const { group, name, spec, raw } of grouped.values()) {
      this.values.set(key(group, name), parseOptionValue(group, name, spec, raw));
    }
  }

  private collect(entry: IniEntry, grouped: Map<string, { group: string; name: string; spec: OptionSpec; raw: string[] }>): void {
    // oslo.config accepts dashes for underscores in option names.
    const found = findOption(entry.group, entry.name.replace(/-/g, '_'));
    if (!found) {
      this.warnings.push(`Ignoring unknown option [${entry.group}]${entry.name} (${entry.file}:${entry.line})`);
      return;
    }
    const k = key(found.group, found.name);
    const slot = grouped.get(k) ?? { ...found, raw: [] };
    // Later files and later lines win, except for multi-valued options which accumulate.
    slot.raw = found.spec.type === 'multistring' ? [...slot.raw, entry.value] : [entry.value];
    grouped.set(k, slot);
  }

  // Group and option names are checked at compile time against the catalog (registry.ts).

  has<G extends GroupName>(group: G, name: OptionName<G>): boolean {
    return this.values.has(key(group, name));
  }

  raw<G extends GroupName>(group: G, name: OptionName<G>): OptionValue {
    return this.valueOf(group, name);
  }

  str<G extends GroupName>(group: G, name: OptionName<G>): string {
    const v = this.valueOf(group, name);
    return v === null || v === undefined ? '' : String(v);
  }

  optStr<G extends GroupName>(group: G, name: OptionName<G>): string | null {
    const v = this.valueOf(group, name);
    return v === null || v === undefined || v === '' ? null : String(v);
  }

  int<G extends GroupName>(group: G, name: OptionName<G>): number {
    const v = this.valueOf(group, name);
    if (typeof v !== 'number') throw new Error(`Option [${group}]${name} is not numeric`);
    return v;
  }

  bool<G extends GroupName>(group: G, name: OptionName<G>): boolean {
    return this.valueOf(group, name) === true;
  }

  list<G extends GroupName>(group: G, name: OptionName<G>): string[] {
    const v = this.valueOf(group, name);
    if (v === null || v === undefined) return [];
    if (!Array.isArray(v)) throw new Error(`Option [${group}]${name} is not a list`);
    return v;
  }

  set<G extends GroupName>(group: G, name: OptionName<G>, value: OptionValue): void {
    if (!OPTIONS[group]?.[name]) throw new Error(`No such option [${group}]${name} in the registry`);
    this.values.set(key(group, name), value);
  }

  /**
   * For code shared by groups whose options differ (keystone_authtoken and a keystoneauth client
   * group): null where the group has no such option, instead of a compile-time check.
   */
  optStrIfKnown(group: string, name: string): string | null {
    const v = this.valueIfKnown(group, name);
    return v === null ? null : String(v);
  }

  /** optStrIfKnown for an integer option: null where the group has no such option or it is unset. */
  intIfKnown(group: string, name: string): number | null {
    const v = this.valueIfKnown(group, name);
    return v === null ? null : Number(v);
  }

  private valueIfKnown(group: string, name: string): OptionValue {
    if (!OPTIONS[group]?.[name]) return null;
    const v = this.valueOf(group, name);
    return v === undefined || v === '' ? null : v;
  }

  /** The value by names only known at run time (interpolation): unknown ones throw. */
  private valueOf(group: string, name: string): OptionValue {
    const spec = OPTIONS[group]?.[name];
    if (!spec) throw new Error(`No such option [${group}]${name} in the registry`);
    const k = key(group, name);
    const value = this.values.has(k) ? (this.values.get(k) as OptionValue) : defaultFor(group, name, spec);
    return typeof value === 'string' ? this.interpolate(group, value) : value;
  }

  /** oslo.config substitutes `$name` / `${group.name}` with other options' values. */
  private interpolate(group: string, text: string, depth = 0): string {
    if (depth > 10 || !text.includes('$')) return text;
    return text.replace(/\$(?:\{([\w.]+)\}|(\w+))/g, (whole, braced?: string, bare?: string) => {
      const ref = braced ?? bare ?? '';
      const [g, n] = ref.includes('.') ? ref.split('.', 2) : [OPTIONS[group]?.[ref] ? group : 'DEFAULT', ref];
      if (!OPTIONS[g]?.[n]) return whole;
      const v = this.valueOf(g, n);
      return v === null ? '' : this.interpolate(g, String(v), depth + 1);
    });
  }
}

function key(group: string, name: string): string {
  return `${group}\u0000${name}`;
}

/** Defaults that Ironic computes at run time rather than stating in its catalog. */
function defaultFor(group: string, name: string, spec: OptionSpec): OptionValue {
  if (group === 'DEFAULT' && name === 'host') return os.hostname();
  if (group === 'DEFAULT' && name === 'pybasedir') return path.resolve(__dirname, '..', '..', '..');
  return spec.default ?? null;
}
