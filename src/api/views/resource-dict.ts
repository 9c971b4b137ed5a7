/**
 * The pieces of Ironic's object_to_dict / sanitize_dict shared by the non-node views: timestamps in
 * Python isoformat, self/bookmark links, and trimming a dict to the requested fields.
 */
import { InvalidParameterValue } from '../../common/errors';
import { Link, selfAndBookmark } from '../links';

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** datetime.isoformat() of an aware UTC datetime: the fraction only when non-zero. */
export function isoformat(date: Date | null): string | null {
  if (!date) return null;
  const main = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}T` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
  const ms = date.getUTCMilliseconds();
  return `${main}${ms ? `.${pad(ms * 1000, 6)}` : ''}+00:00`;
}

export function links(base: string, resource: string, arg: string): Link[] {
  return selfAndBookmark(base, resource, arg);
}

/** sanitize_dict: keeps only `fields` (and links); null fields keeps everything. */
export function sanitize(dict: Record<string, unknown>, fields: readonly string[] | null): void {
  if (fields === null) return;
  for (const key of Object.keys(dict)) {
    if (key !== 'links' && !fields.includes(key)) delete dict[key];
  }
}

/** check_for_invalid_fields: fields the resource does not have at all. */
export function checkInvalidFields(fields: readonly string[] | null, known: Iterable<string>): void {
  if (fields === null) return;
  const knownSet = new Set(known);
  const invalid = [...new Set(fields)].filter((f) => !knownSet.has(f));
  if (invalid.length > 0) throw new InvalidParameterValue(`Field(s) "${invalid.join(', ')}" are not valid`);
}
