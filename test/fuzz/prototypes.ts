/**
 * Watches the built-in prototypes the server's code relies on. A snapshot keeps each own
 * property's descriptor; a later comparison names what was added, removed or replaced, and
 * `restore` puts the snapshot back so one pollution does not mask the next.
 */
const WATCHED: ReadonlyArray<[string, object]> = [
  ['Object.prototype', Object.prototype], ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype], ['String.prototype', String.prototype],
  ['Number.prototype', Number.prototype], ['Boolean.prototype', Boolean.prototype],
];

type Snapshot = Map<string, Map<PropertyKey, PropertyDescriptor>>;

export function snapshotPrototypes(): Snapshot {
  return new Map(WATCHED.map(([name, proto]) => [name, descriptors(proto)]));
}

/** An indexed loop, not Array.prototype.map: the check must hold even when that is what was replaced. */
function descriptors(proto: object): Map<PropertyKey, PropertyDescriptor> {
  const keys = Reflect.ownKeys(proto);
  const out = new Map<PropertyKey, PropertyDescriptor>();
  for (let i = 0; i < keys.length; i++) out.set(keys[i], Object.getOwnPropertyDescriptor(proto, keys[i]) as PropertyDescriptor);
  return out;
}

function sameDescriptor(a: PropertyDescriptor, b: PropertyDescriptor): boolean {
  return a.value === b.value && a.get === b.get && a.set === b.set && a.writable === b.writable
    && a.enumerable === b.enumerable && a.configurable === b.configurable;
}

/** What differs from the snapshot, one line per property; empty when nothing does. */
export function prototypeChanges(before: Snapshot): string[] {
  const changes: string[] = [];
  for (const [name, proto] of WATCHED) {
    const was = before.get(name) ?? new Map();
    const now = descriptors(proto);
    for (const [key, d] of now) {
      const old = was.get(key);
      if (!old) changes.push(`${name}.${String(key)} added (${describe(d)})`);
      else if (!sameDescriptor(old, d)) changes.push(`${name}.${String(key)} replaced (${describe(d)})`);
    }
    for (const key of was.keys()) if (!now.has(key)) changes.push(`${name}.${String(key)} deleted`);
  }
  // `for…in` over an empty object sees every enumerable key up the chain: there must be none.
  for (const key in {}) changes.push(`enumerable key ${key} inherited by {}`);
  return changes;
}

function describe(d: PropertyDescriptor): string {
  const value = d.get || d.set ? 'accessor' : JSON.stringify(d.value)?.slice(0, 60) ?? typeof d.value;
  return `${value}${d.enumerable ? ', enumerable' : ''}`;
}

export function restorePrototypes(before: Snapshot): void {
  for (const [name, proto] of WATCHED) {
    const was = before.get(name) ?? new Map();
    for (const key of Reflect.ownKeys(proto)) if (!was.has(key)) Reflect.deleteProperty(proto, key);
    for (const [key, d] of was) Object.defineProperty(proto, key, d);
  }
}
