/**
 * oslo.utils' specs_matcher: the little operator language of root device hints ("s== foo",
 * ">= 10", "<in> bar", "<or> a <or> b", "<all-in> x y", "<range-in> [ 1 2 ]"). `parseSpec`
 * tokenizes as its pyparsing grammar does (leading match only, whitespace skipped, operators
 * matched as prefixes); `matchSpec` applies an operator as Python would, including its failures
 * (ValueError/TypeError), which callers report.
 */

/** A Python exception raised while matching; `name` is its class name, as Ironic prints it. */
export class PyError extends Error {
  constructor(readonly pyClass: 'ValueError' | 'TypeError' | 'ParseException', message: string) {
    super(message);
    this.name = pyClass;
  }
}

// Order matters as in the grammar: '==' before '=', '<=' before '<', 's<=' before 's<'.
const UNARY_OPS = ['==', '=', '!=', '<in>', '>=', '<=', '>', '<', 's==', 's!=', 's<=', 's<', 's>=', 's>'];
const KEYWORDS = [...UNARY_OPS, '<all-in>', '<or>', '<range-in>'];

class Cursor {
  constructor(private readonly text: string, public pos = 0) {}

  private skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos])) this.pos++;
  }

  literal(options: readonly string[]): string | null {
    this.skipSpace();
    const found = options.find((op) => this.text.startsWith(op, this.pos));
    if (found !== undefined) this.pos += found.length;
    return found ?? null;
  }

  /** Anything but a keyword, up to whitespace. */
  atom(): string | null {
    this.skipSpace();
    if (KEYWORDS.some((k) => this.text.startsWith(k, this.pos))) return null;
    const m = /^\S+/.exec(this.text.slice(this.pos));
    if (!m) return null;
    this.pos += m[0].length;
    return m[0];
  }
}

type Alternative = (c: Cursor) => string[] | null;

function atoms(c: Cursor, count: number | 'many'): string[] | null {
  const out: string[] = [];
  for (;;) {
    if (count !== 'many' && out.length === count) return out;
    const start = c.pos;
    const a = c.atom();
    if (a === null) {
      c.pos = start;
      return count === 'many' && out.length ? out : null;
    }
    out.push(a);
  }
}

const disjunction: Alternative = (c) => {
  const values: string[] = [];
  for (;;) {
    const start = c.pos;
    const value = c.literal(['<or>']) !== null ? c.atom() : null;
    if (value === null) {
      c.pos = start;
      return values.length ? ['<or>', ...values] : null;
    }
    values.push(value);
  }
};
const nary: Alternative = (c) => (c.literal(['<all-in>']) ? prefixed('<all-in>', atoms(c, 'many')) : null);
const rangeOp: Alternative = (c) => (c.literal(['<range-in>']) ? prefixed('<range-in>', atoms(c, 4)) : null);
const unary: Alternative = (c) => {
  const op = c.literal(UNARY_OPS);
  return op === null ? null : prefixed(op, atoms(c, 1));
};
const single: Alternative = (c) => atoms(c, 1);

function prefixed(op: string, rest: string[] | null): string[] | null {
  return rest ? [op, ...rest] : null;
}

/** The tokens of a spec (the operator first when there is one); a ParseException when none fits. */
export function parseSpec(spec: string): string[] {
  for (const alternative of [disjunction, nary, rangeOp, unary, single]) {
    const tokens = alternative(new Cursor(spec));
    if (tokens) return tokens;
  }
  throw parseFailure(spec);
}

const KEYWORD_SET = `{${'{'.repeat(KEYWORDS.length - 2)}${KEYWORDS.map((k, i) => `'${k}'${i > 0 && i < KEYWORDS.length - 1 ? '}' : ''}`).join(' | ')}}`;

function at(loc: number): string {
  return `(at char ${loc}), (line:1, col:${loc + 1})`;
}

/**
 * pyparsing's message when nothing fits: only an operator left without its value can fail (every
 * other text is at least an atom), reported where the value was expected.
 */
function parseFailure(spec: string): PyError {
  const c = new Cursor(spec);
  c.literal(UNARY_OPS);
  const afterOp = c.pos;
  const rest = spec.slice(afterOp);
  const valueAt = afterOp + (rest.length - rest.trimStart().length);
  if (valueAt >= spec.length) return new PyError('ParseException', `Expected Re:('\\S+'), found end of text  ${at(valueAt)}`);
  return new PyError('ParseException', `Found unwanted token, ${KEYWORD_SET}, found '${spec[afterOp]}'  ${at(afterOp)}`);
}

/** A value being matched: a string, or a number (a disk size in GiB, a Python float). */
export type SpecValue = string | number;

function pyReprValue(v: SpecValue): string {
  if (typeof v === 'number') return Number.isInteger(v) ? `${v}.0` : String(v);
  return `'${v}'`;
}

/** Python float() of a string or number. */
function pyFloat(v: SpecValue): number {
  if (typeof v === 'number') return v;
  const t = v.trim().replace(/(\d)_(?=\d)/g, '$1');
  if (/^[+-]?((\d+\.?\d*|\.\d+)(e[+-]?\d+)?)$/i.test(t)) return Number(t);
  if (/^[+-]?(inf|infinity)$/i.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
  if (/^[+-]?nan$/i.test(t)) return NaN;
  throw new PyError('ValueError', `could not convert string to float: ${pyReprValue(v)}`);
}

function typeName(v: SpecValue): string {
  return typeof v === 'number' ? 'float' : 'str';
}

function stringOrder(op: string, x: SpecValue, y: string, cmp: (a: string, b: string) => boolean): boolean {
  if (typeof x !== 'string') {
    throw new PyError('TypeError', `'${op.slice(1)}' not supported between instances of '${typeName(x)}' and 'str'`);
  }
  return cmp(x, y);
}

function literalList(x: SpecValue): string[] {
  // ast.literal_eval of a device value: only a list literal of strings is accepted here.
  const text = typeof x === 'string' ? x.trim() : '';
  if (typeof x === 'string' && text.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(text.replace(/'/g, '"'));
      if (Array.isArray(parsed)) return parsed.map(String);
    } catch {
      // falls through to Python's error
    }
  }
  throw new PyError('ValueError', `malformed node or string: ${pyReprValue(x)}`);
}

function rangeIn(x: SpecValue, y: string[]): boolean {
  if (typeof x !== 'string') throw new PyError('ValueError', `malformed node or string: ${pyReprValue(x)}`);
  const num = pyFloat(x);
  const [open, low, high, close] = y;
  const lo = pyFloat(low);
  const hi = pyFloat(high);
  if (lo > hi) {
    throw new PyError('TypeError', '<range-in> operator\'s first argument has to be smaller or equal to the second ' +
      'argument EG"range_in  ( 10 20 ] "');
  }
  if (open !== '[' && open !== '(') throw new PyError('TypeError', 'The first element should be an opening bracket ("(" or "[")');
  if (close !== ']' && close !== ')') throw new PyError('TypeError', 'The last element should be a closing bracket (")" or "]")');
  return (open === '[' ? num >= lo : num > lo) && (close === ']' ? num <= hi : num < hi);
}

function applyOp(op: string, x: SpecValue, y: string[]): boolean {
  const first = y[0];
  switch (op) {
    case '=': case '>=': return pyFloat(x) >= pyFloat(first);
    case '!=': return pyFloat(x) !== pyFloat(first);
    case '<=': return pyFloat(x) <= pyFloat(first);
    case '<': return pyFloat(x) < pyFloat(first);
    case '==': return pyFloat(x) === pyFloat(first);
    case '>': return pyFloat(x) > pyFloat(first);
    case 's==': return x === first;
    case 's!=': return x !== first;
    case 's<': return stringOrder(op, x, first, (a, b) => a < b);
    case 's<=': return stringOrder(op, x, first, (a, b) => a <= b);
    case 's>': return stringOrder(op, x, first, (a, b) => a > b);
    case 's>=': return stringOrder(op, x, first, (a, b) => a >= b);
    case '<in>':
      if (typeof x !== 'string') throw new PyError('TypeError', `argument of type '${typeName(x)}' is not iterable`);
      return x.includes(first);
    case '<or>': return y.some((a) => a === x);
    case '<all-in>': {
      const list = literalList(x);
      return y.every((v) => list.includes(v));
    }
    default: {
      if (y.length !== 4) {
        throw new PyError('TypeError', '<range-in> operator has to be followed by 2 space separated numeric value ' +
          'surrounded by brackets "range_in [ 10 20 ] "');
      }
      return rangeIn(x, y);
    }
  }
}

/** specs_matcher.match: does the value satisfy the spec? A spec that does not parse is compared whole. */
export function matchSpec(value: SpecValue, spec: string): boolean {
  let tree: string[];
  try {
    tree = parseSpec(spec);
  } catch (err) {
    if (!(err instanceof PyError)) throw err;
    tree = [spec];
  }
  if (tree.length === 1) return tree[0] === value;
  return applyOp(tree[0], value, tree.slice(1));
}
