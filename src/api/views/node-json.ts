/**
 * Node views written straight from database rows to Python's JSON text, for lists.
 *
 * The same view as nodeView (same keys in the same order, masks, links, version renames). For each
 * (version, fields, columns) the view is compiled once into a single concatenation expression of
 * constant text and per-column value functions, so a node costs one string and no intermediate
 * objects. Thousand-node pages otherwise spent most of their time building row objects, decoded
 * records and view dicts only to serialise them once.
 */
import { decodeDate } from '../../db/codec';
import type { ColumnKind } from '../../db/columns';
import { DICT_FIELDS, NODE_COLUMN_KINDS } from '../../db/node-field-lists';
import { StoredJson } from '../../db/stored-json';
import { selfAndBookmark } from '../links';
import { asciiJson, jsonString, pyJsonDumps, pyJsonFragment } from '../pyjson';
import { V } from '../versions';
import { NodeViewExtras, NodeViewOptions, SUB_LINKS, subLinks, viewPlan } from './node';
import { maskUrlCredentials } from '../../common/mask';
import { hasFieldMask, maskNodeDict, storedDictNeedsMask } from './node-masking';
import type { NodeRef } from './node-extras';
import { isoformat } from './resource-dict';

export type NodeRow = readonly unknown[];

/** What a row's writer gets besides the row: the computed fields and the node's traits (null when not loaded). */
interface NodeRowContext {
  extras: NodeViewExtras;
  traits: readonly string[] | null;
}

const MARK = `uuid-${Math.random().toString(36).slice(2)}`;

function text(value: unknown): string {
  return Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
}

function str(value: unknown): string {
  return value === null || value === undefined ? 'null' : jsonString(text(value));
}

/** SQLite's stored form, 'YYYY-MM-DD HH:MM:SS.ffffff', read as decodeDate + isoformat would (to the millisecond). */
const SQLITE_DATETIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/;

function date(value: unknown): string {
  if (typeof value === 'string' && SQLITE_DATETIME.test(value)) {
    const ms = value.slice(20, 23);
    return `"${value.slice(0, 10)}T${value.slice(11, 19)}${ms === '000' ? '' : `.${ms}000`}+00:00"`;
  }
  return str(isoformat(decodeDate(value)));
}

function bool(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  return value === true || value === 1 || value === '1' || value === 1n ? 'true' : 'false';
}

function int(value: unknown): string {
  return value === null || value === undefined ? 'null' : String(Number(value));
}

function storedText(value: unknown): string {
  return value === null || value === undefined ? 'null' : text(value);
}

function dict(value: unknown): string {
  const stored = storedText(value);
  return stored === 'null' ? '{}' : asciiJson(stored);
}

function list(value: unknown): string {
  return asciiJson(storedText(value));
}

/** Bound on each masked column's memo: above a large fleet's node count, so repeated lists all hit. */
const MASK_MEMO_SIZE = 50_000;

/**
 * A dict column's text as maskNodeField shows it. Columns with Ironic's masks are memoised by their
 * stored text: masking parses and re-serialises the dict, which was a tenth of a detail page, and
 * the same stored texts come back on every poll of the list. Other columns rarely need a mask
 * (URL userinfo): the cheap prefilter comes first (a Map lookup hashes the whole text), and only
 * texts it lets through go to the memo.
 */
function maskedDict(field: string): (value: unknown) => string {
  const memo = new Map<string, string>();
  const memoised = (stored: string): string => {
    let out = memo.get(stored);
    if (out === undefined) {
      out = storedDictNeedsMask(field, stored)
        ? pyJsonFragment(maskNodeDict(field, new StoredJson(stored).parse() as Record<string, unknown>))
        : asciiJson(stored);
      if (memo.size >= MASK_MEMO_SIZE) memo.clear();
      memo.set(stored, out);
    }
    return out;
  };
  const prefilterFirst = !hasFieldMask(field);
  return (value) => {
    const stored = storedText(value);
    if (stored === 'null') return '{}'; // No mask changes an empty dict.
    if (prefilterFirst && !storedDictNeedsMask(field, stored)) return asciiJson(stored);
    return memoised(stored);
  };
}

/** A string column as maskNodeField shows it (URL userinfo masked). */
function maskedStr(value: unknown): string {
  return value === null || value === undefined ? 'null' : jsonString(maskUrlCredentials(text(value)));
}

/** update_state_in_older_versions, on provision_state only (as nodeView applies it). */
function provisionState(version: number): (value: unknown) => string {
  return (value) => {
    if (version < 2 && value === 'available') return 'null';
    if (version < V.INSPECT_WAIT && value === 'inspect wait') return '"inspecting"';
    return str(value);
  };
}

function traits(names: readonly string[] | null): string {
  return names === null ? 'null' : `[${names.map(jsonString).join(', ')}]`;
}

/** A piece of a node's text: constant, a function of one column, or of the node's context. */
type Piece =
  | { text: string }
  | { column: number; format: (value: unknown) => string }
  | { context: (context: NodeRowContext) => string }
  | { uuid: true };

/** Link lists are serialised once around a placeholder; each node splices its uuid in. */
function linkPieces(links: unknown): Piece[] {
  const [head, ...rest] = pyJsonDumps(links).split(MARK);
  return [{ text: head }, ...rest.flatMap((part): Piece[] => [{ uuid: true }, { text: part }])];
}

/** One masked formatter per dict field, so each keeps its memo across writers. */
const MASKED_DICTS = new Map([...DICT_FIELDS].map((field) => [field, maskedDict(field)]));

const FORMATS: Readonly<Record<ColumnKind, (value: unknown) => string>> = {
  dict, list, datetime: date, bool, int, str: maskedStr,
};

function columnFormat(field: string, version: number): (value: unknown) => string {
  if (field === 'provision_state') return provisionState(version);
  const kind = NODE_COLUMN_KINDS[field];
  // Unset dict fields read as {} (node_convert_with_links); other JSON columns as null.
  if (kind === 'dict' || kind === 'list') return MASKED_DICTS.get(field) ?? list;
  return FORMATS[kind];
}

function valuePieces(key: string, columnAt: ReadonlyMap<string, number>, opts: NodeViewOptions): Piece[] {
  switch (key) {
    case 'links': return linkPieces(selfAndBookmark(opts.base, 'nodes', MARK));
    case 'conductor': return [{ context: (c) => str(c.extras.conductor) }];
    case 'allocation_uuid': return [{ context: (c) => str(c.extras.allocationUuid) }];
    case 'chassis_uuid': return [{ context: (c) => str(c.extras.chassisUuid) }];
    case 'traits': return [{ context: (c) => traits(c.traits) }];
  }
  if (SUB_LINKS.has(key)) return linkPieces(subLinks(opts.base, MARK, key));
  const at = columnAt.get(key);
  if (at === undefined) return [{ text: DICT_FIELDS.has(key) ? '{}' : 'null' }];
  return [{ column: at, format: columnFormat(key, opts.version) }];
}

/** Adjacent constant pieces become one. */
function mergeText(pieces: Piece[]): Piece[] {
  const out: Piece[] = [];
  for (const piece of pieces) {
    const last = out[out.length - 1];
    if ('text' in piece && last && 'text' in last) out[out.length - 1] = { text: last.text + piece.text };
    else out.push(piece);
  }
  return out;
}

type RowWriter = (row: NodeRow, context: NodeRowContext) => string;

/**
 * One function per plan whose body is a single `+` chain: V8 builds that as one rope without the
 * per-field calls and dispatch of a loop over writers. The generated source holds only indexes into
 * the constant and formatter arrays, never request data.
 */
function compile(pieces: Piece[], uuidAt: number): RowWriter {
  const constants: string[] = [];
  const formats: Array<(value: unknown) => string> = [];
  const contexts: Array<(context: NodeRowContext) => string> = [];
  const terms = pieces.map((piece) => {
    if ('text' in piece) return `k[${constants.push(piece.text) - 1}]`;
    if ('uuid' in piece) return 'u';
    if ('column' in piece) return `f[${formats.push(piece.format) - 1}](row[${piece.column}])`;
    return `c[${contexts.push(piece.context) - 1}](ctx)`;
  });
  const source = `return function writeNode(row, ctx) {
    const u = uuidText(row[${uuidAt}]);
    return ${terms.join(' + ')};
  };`;
  const factory = new Function('k', 'f', 'c', 'uuidText', source) as
    (k: string[], f: typeof formats, c: typeof contexts, uuidText: (value: unknown) => string) => RowWriter;
  return factory(constants, formats, contexts, (value) => str(value).slice(1, -1));
}

/**
 * The writer for rows with these columns: each call returns one node's JSON object, byte for byte
 * what pyJsonDumps(nodeView(...)) gives for the decoded row. `columns` must include uuid.
 */
export function nodeRowWriter(opts: NodeViewOptions, columns: readonly string[]): RowWriter {
  const key = `${opts.version}|${opts.fields === null ? '*' : opts.fields.join(',')}|${columns.join(',')}|${opts.base}`;
  let writer = writers.get(key);
  if (!writer) {
    writer = buildWriter(opts, columns);
    // Few distinct plans occur (versions x field sets x endpoints); the bound only stops odd clients growing it.
    if (writers.size >= 256) writers.clear();
    writers.set(key, writer);
  }
  return writer;
}

const writers = new Map<string, RowWriter>();

function buildWriter(opts: NodeViewOptions, columns: readonly string[]): RowWriter {
  const columnAt = new Map(columns.map((c, i) => [c, i]));
  const pieces = viewPlan(opts.fields, opts.version).flatMap((key, i): Piece[] => [
    { text: `${i === 0 ? '{' : ', '}${jsonString(key)}: ` },
    ...valuePieces(key, columnAt, opts),
  ]);
  return compile(mergeText([...pieces, { text: '}' }]), columnAt.get('uuid') as number);
}

/** The fields a list needs from each row besides its view: paging, extras and the hash ring. */
export function nodeRefs(columns: readonly string[], rows: readonly NodeRow[]): NodeRef[] {
  const at = (name: string): number => columns.indexOf(name);
  const [id, uuid, chassis, allocation, driver, group] =
    ['id', 'uuid', 'chassis_id', 'allocation_id', 'driver', 'conductor_group'].map(at);
  const intOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
  return rows.map((r) => ({
    id: Number(r[id]),
    uuid: text(r[uuid]),
    chassis_id: chassis < 0 ? null : intOrNull(r[chassis]),
    allocation_id: allocation < 0 ? null : intOrNull(r[allocation]),
    driver: driver < 0 || r[driver] === null ? null : text(r[driver]),
    conductor_group: group < 0 || r[group] === null ? '' : text(r[group]),
  }));
}
