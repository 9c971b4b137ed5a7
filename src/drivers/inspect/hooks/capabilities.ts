/** The `key:value,...` capabilities string of node properties (common/utils get_updated_capabilities). */

/** The capabilities string with `updates` set, existing keys keeping their place. */
export function updatedCapabilities(current: unknown, updates: Record<string, string | number>): string {
  const caps = new Map<string, string>();
  if (typeof current === 'string' && current !== '') {
    for (const pair of current.split(',')) {
      const at = pair.indexOf(':');
      if (at < 0) {
        throw new Error(`Invalid capabilities string '${current}'.`);
      }
      caps.set(pair.slice(0, at), pair.slice(at + 1));
    }
  }
  for (const [key, value] of Object.entries(updates)) caps.set(key, String(value));
  return [...caps].map(([k, v]) => `${k}:${v}`).join(',');
}
