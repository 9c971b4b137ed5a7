/**
 * Makes two lifecycle runs comparable: uuids, timings, the config drive's random seed, tracebacks and
 * the server's port differ between runs by nature.
 */
import type { LifecycleResults } from './run-lifecycle';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

function normalizeValue(key: string, value: unknown): unknown {
  if (key === 'seconds' || key === 'random_seed' || key === 'trace' || key === 'ironic_url') return '<varies>';
  if (typeof value === 'string') return value.replace(UUID, '<uuid>').replace(/127\.0\.0\.1:\d+/g, '<host>');
  if (Array.isArray(value)) return value.map((v) => normalizeValue('', v));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalizeValue(k, v)]));
  }
  return value;
}

export function normalizeResults(results: LifecycleResults): unknown {
  return normalizeValue('', results);
}
