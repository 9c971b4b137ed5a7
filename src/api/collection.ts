/** Pagination as Ironic does it: limit capped by [api]max_limit, marker by uuid, and a `next` link when a page is full. */
import { InvalidParameterValue } from '../common/errors';
import type { ApiContext } from './state';
import { baseUrl } from './links';

export interface PageRequest {
  limit: number;
  marker: string | null;
  sortKey: string;
  sortDir: 'asc' | 'desc';
}

export function parseLimit(ctx: ApiContext, raw: string | undefined): number {
  const maxLimit = ctx.state.deps.conf.int('api', 'max_limit');
  if (raw === undefined || raw === '') return maxLimit;
  if (!/^\s*[+-]?\d+\s*$/.test(raw)) throw new InvalidParameterValue(`Invalid input for field/attribute limit. Value: '${raw}'. unable to convert to int`);
  const limit = Number.parseInt(raw, 10);
  if (limit <= 0) throw new InvalidParameterValue('Limit must be positive');
  return Math.min(maxLimit, limit);
}

export function parseSortDir(raw: string | undefined): 'asc' | 'desc' {
  const dir = raw ?? 'asc';
  if (dir !== 'asc' && dir !== 'desc') {
    throw new InvalidParameterValue(`Invalid sort direction: ${dir}. Acceptable values are 'asc' or 'desc'`);
  }
  return dir;
}

/**
 * Checks sort_key against the resource's sortable fields; Ironic refuses JSON columns and unknown fields.
 */
export function parseSortKey(raw: string | undefined, sortable: ReadonlySet<string>, invalid: ReadonlySet<string> = new Set()): string {
  const key = raw ?? 'id';
  if (invalid.has(key)) {
    throw new InvalidParameterValue(`The sort_key value "${key}" is an invalid field for sorting`);
  }
  if (key !== 'id' && !sortable.has(key)) {
    throw new InvalidParameterValue(`The sort_key value "${key}" is an invalid field for sorting`);
  }
  return key;
}

export function parsePage(ctx: ApiContext, sortable: ReadonlySet<string>, invalidSortKeys?: ReadonlySet<string>): PageRequest {
  const q = queryParams(ctx);
  return {
    limit: parseLimit(ctx, q.limit),
    marker: q.marker ?? null,
    sortKey: parseSortKey(q.sort_key, sortable, invalidSortKeys),
    sortDir: parseSortDir(q.sort_dir),
  };
}

/** Single-valued query parameters (the last one wins, as webob's `params` does). */
export function queryParams(ctx: ApiContext): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(ctx.query)) out[key] = Array.isArray(value) ? value[value.length - 1] : value;
  return out;
}

/**
 * Builds `{<name>: items, next?: url}`; `nextArgs` are the other query arguments Ironic repeats in
 * the next link, in its order, before limit and marker.
 */
export function collection<T extends { uuid?: unknown }>(
  ctx: ApiContext,
  name: string,
  items: T[],
  page: { limit: number; resource: string; nextArgs?: [string, string][]; markerOf?: (item: T) => string },
): Record<string, unknown> {
  const body: Record<string, unknown> = { [name]: items };
  if (items.length > 0 && items.length === page.limit) {
    const last = items[items.length - 1];
    const marker = page.markerOf ? page.markerOf(last) : String(last.uuid);
    const args = (page.nextArgs ?? []).map(([k, v]) => `${k}=${v}&`).join('');
    body.next = `${baseUrl(ctx)}/v1/${page.resource}?${args}limit=${page.limit}&marker=${marker}`;
  }
  return body;
}
