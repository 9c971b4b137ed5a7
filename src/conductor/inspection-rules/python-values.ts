/** Python semantics of JSON values the rules compare: == and type names. */

/** Python's ==: 1 == 1.0 == True, lists and dicts compared deeply. */
export function pyEquals(a: unknown, b: unknown): boolean {
  const num = (v: unknown): number | null => (typeof v === 'number' ? v : typeof v === 'boolean' ? Number(v) : null);
  const [na, nb] = [num(a), num(b)];
  if (na !== null || nb !== null) return na !== null && nb !== null && na === nb;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => pyEquals(x, b[i]));
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    const rb = b as Record<string, unknown>;
    return ka.length === Object.keys(rb).length &&
      ka.every((k) => Object.hasOwn(rb, k) && pyEquals((a as Record<string, unknown>)[k], rb[k]));
  }
  return (a ?? null) === (b ?? null);
}

export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string') return 'str';
  return Array.isArray(value) ? 'list' : 'dict';
}
