/** Ironic's list bodies: the items, and a `next` link when a page is full (marker = last uuid). */
import type { ApiContext } from './state';
import { baseUrl } from './links';

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
