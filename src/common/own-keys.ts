/**
 * Constant string-keyed tables without a prototype. Such tables are read with keys that come from
 * requests (verbs, field names, sort keys); on a plain object `T['constructor']` or `T['__proto__']`
 * would answer Object's own members instead of `undefined`.
 */
export function lookupTable<V>(entries: Readonly<Record<string, V>>): Readonly<Record<string, V>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, V>, entries));
}

/**
 * An empty dictionary for keys taken from a request: without a prototype, `d['__proto__'] = v`
 * stores a key as Python's dict would, instead of replacing the object's prototype.
 */
export function emptyDict<V>(): Record<string, V> {
  return Object.create(null) as Record<string, V>;
}
