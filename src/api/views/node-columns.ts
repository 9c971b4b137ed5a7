/**
 * The node columns a list must read to build views for `fields`: reading (and JSON-decoding) all
 * 65 columns for Nova's 11-field query dominated list time, while the view only touches the
 * requested fields plus what the links, extras (chassis, allocation, hash ring) and paging need.
 */
import { NODE_COLUMN_KINDS, NODE_FIELDS } from '../../db/node-field-lists';

/** Always read: identity and timestamps the view shows, and the inputs of the computed fields. */
const ALWAYS = ['id', 'uuid', 'created_at', 'updated_at', 'chassis_id', 'allocation_id', 'driver', 'conductor_group'];

const NODE_COLUMNS: ReadonlySet<string> = new Set(Object.keys(NODE_COLUMN_KINDS));
const cache = new Map<string, readonly string[]>();

/**
 * Columns for these requested fields; null means every field the API shows (NODE_FIELDS), which
 * still leaves out columns no view reads (version, conductor_affinity, service_step, ...).
 */
export function nodeColumnsFor(fields: readonly string[] | null): readonly string[] {
  const key = fields === null ? '*' : fields.join(',');
  let columns = cache.get(key);
  if (!columns) {
    const wanted = fields ?? NODE_FIELDS;
    columns = [...new Set([...ALWAYS, ...wanted.filter((f) => NODE_COLUMNS.has(f))])];
    if (cache.size > 1000) cache.clear();
    cache.set(key, columns);
  }
  return columns;
}
