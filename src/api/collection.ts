/** Ironic's list bodies: the items, and a `next` link when a page is full (marker = last uuid). */
import type { ApiContext } from './state';
import { baseUrl } from './links';
import { JsonSink } from './json-sink';
import { jsonString } from './pyjson';

interface PageLinks {
  limit: number;
  resource: string;
  /** The other query arguments Ironic repeats in the next link, in its order, before limit and marker. */
  nextArgs?: [string, string][];
}

/** The `next` link for a page of `count` items whose last item's marker is `lastMarker`; none unless the page is full. */
function nextLink(ctx: ApiContext, count: number, lastMarker: () => string, page: PageLinks): string | undefined {
  if (count === 0 || count !== page.limit) return undefined;
  const args = (page.nextArgs ?? []).map(([k, v]) => `${k}=${v}&`).join('');
  return `${baseUrl(ctx)}/v1/${page.resource}?${args}limit=${page.limit}&marker=${lastMarker()}`;
}

/** Builds `{<name>: items, next?: url}`. */
export function collection<T extends { uuid?: unknown }>(
  ctx: ApiContext,
  name: string,
  items: T[],
  page: PageLinks & { markerOf?: (item: T) => string },
): Record<string, unknown> {
  const body: Record<string, unknown> = { [name]: items };
  const next = nextLink(ctx, items.length, () => {
    const last = items[items.length - 1];
    return page.markerOf ? page.markerOf(last) : String(last.uuid);
  }, page);
  if (next !== undefined) body.next = next;
  return body;
}

/**
 * The same body as JSON bytes; `writeItems` appends the `count` items' JSON, comma-separated, to
 * the sink. `bytesPerItem` is a size estimate; pages bigger than it still work, with a copy.
 */
export function collectionBytes(ctx: ApiContext, name: string, count: number, lastMarker: () => string,
  page: PageLinks & { bytesPerItem?: number }, writeItems: (out: JsonSink) => void): Buffer {
  // Sized up front for the whole page: growing by doubling copied a detail page four times over.
  const out = new JsonSink(Math.max(4096, count * (page.bytesPerItem ?? 512)));
  out.add(`{${jsonString(name)}: [`);
  writeItems(out);
  const next = nextLink(ctx, count, lastMarker, page);
  out.add(next === undefined ? ']}' : `], "next": ${jsonString(next)}}`);
  return out.bytes();
}
