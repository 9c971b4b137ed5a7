/**
 * The YAML of Ironic's data files (built-in inspection rules, known accelerators), which Ironic
 * reads with yaml.safe_load; this reads the YAML such files are written in: block sequences and
 * mappings by indentation, plain and quoted scalars, one-line flow collections, comments.
 * Anchors, tags and multi-line scalars are not supported and fail loudly.
 */

interface Line { indent: number; text: string; no: number }

function stripComment(text: string): string {
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) { if (ch === quote) quote = null; continue; }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '#' && (i === 0 || /\s/.test(text[i - 1]))) return text.slice(0, i);
  }
  return text;
}

function scalar(raw: string, no: number): unknown {
  const text = raw.trim();
  if (text === '' || text === '~' || text === 'null' || text === 'Null' || text === 'NULL') return null;
  if (/^(true|True|TRUE)$/.test(text)) return true;
  if (/^(false|False|FALSE)$/.test(text)) return false;
  if (/^[-+]?\d+$/.test(text)) return Number(text);
  if (/^[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?$/.test(text)) return Number(text);
  if (text.startsWith("'")) {
    if (!text.endsWith("'") || text.length < 2) throw new Error(`line ${no}: unterminated quoted scalar`);
    return text.slice(1, -1).replace(/''/g, "'");
  }
  if (text.startsWith('"')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new Error(`line ${no}: unsupported quoted scalar ${text}`);
    }
  }
  if (text.startsWith('[') || text.startsWith('{')) return flowValue(text, no);
  if (/^[&*!|>]/.test(text)) throw new Error(`line ${no}: unsupported YAML construct ${text}`);
  return text;
}

/** A one-line flow collection (`[a, "b", {c: 1}]`): its scalars read like block ones. */
function flowValue(text: string, no: number): unknown {
  let at = 0;
  const fail = (): never => { throw new Error(`line ${no}: unsupported flow value ${text}`); };
  const skip = (): void => { while (/\s/.test(text[at] ?? '')) at++; };
  const item = (stops: string): unknown => {
    skip();
    if (text[at] === '[' || text[at] === '{') return collection();
    const start = at;
    if (text[at] === '"' || text[at] === "'") {
      const quote = text[at++];
      while (at < text.length && (text[at] !== quote || (quote === "'" && text[at + 1] === "'"))) {
        at += (text[at] === '\\' && quote === '"') || (text[at] === "'" && quote === "'") ? 2 : 1;
      }
      if (at >= text.length) fail();
      at++;
    } else {
      while (at < text.length && !stops.includes(text[at])) at++;
    }
    return scalar(text.slice(start, at), no);
  };
  const collection = (): unknown => {
    const open = text[at++];
    const close = open === '[' ? ']' : '}';
    const list: unknown[] = [];
    const map: Record<string, unknown> = {};
    skip();
    while (text[at] !== close) {
      if (open === '[') {
        list.push(item(',]'));
      } else {
        const key = item(':,}');
        skip();
        if (text[at++] !== ':') fail();
        map[String(key)] = item(',}');
      }
      skip();
      if (text[at] === ',') { at++; skip(); } else if (text[at] !== close) fail();
    }
    at++;
    return open === '[' ? list : map;
  };
  const value = collection();
  skip();
  if (at !== text.length) fail();
  return value;
}

/** `key: rest` of a mapping line, or null when the line is not one. */
function keyOf(text: string): [string, string] | null {
  const m = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s"'#][^:]*?)\s*:(?:\s+(.*)|$)/.exec(text);
  if (!m) return null;
  return [String(scalar(m[1], 0)), m[2] ?? ''];
}

function parseBlock(lines: Line[], at: { i: number }, indent: number): unknown {
  const first = lines[at.i];
  if (first.text.startsWith('- ') || first.text === '-') {
    const list: unknown[] = [];
    while (at.i < lines.length && lines[at.i].indent === indent && (lines[at.i].text.startsWith('- ') || lines[at.i].text === '-')) {
      const line = lines[at.i];
      const rest = line.text.slice(1).trimStart();
      if (rest === '') {
        at.i++;
        list.push(at.i < lines.length && lines[at.i].indent > indent ? parseBlock(lines, at, lines[at.i].indent) : null);
      } else {
        // "- key: value" opens a mapping whose keys sit at the item's content column.
        const inner = indent + (line.text.length - rest.length);
        lines[at.i] = { indent: inner, text: rest, no: line.no };
        list.push(keyOf(rest) ? parseBlock(lines, at, inner) : (at.i++, scalar(rest, line.no)));
      }
    }
    return list;
  }
  const map: Record<string, unknown> = {};
  while (at.i < lines.length && lines[at.i].indent === indent) {
    const line = lines[at.i];
    const kv = keyOf(line.text);
    if (!kv) throw new Error(`line ${line.no}: expected "key: value"`);
    at.i++;
    const [key, rest] = kv;
    if (rest.trim() !== '') map[key] = scalar(rest, line.no);
    else if (at.i < lines.length && (lines[at.i].indent > indent || (lines[at.i].indent === indent && lines[at.i].text.startsWith('-')))) {
      map[key] = parseBlock(lines, at, lines[at.i].indent);
    } else map[key] = null;
  }
  return map;
}

export function parseYaml(text: string): unknown {
  const lines: Line[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() === '---') return;
    const body = stripComment(raw).replace(/\s+$/, '');
    if (body.trim() === '') return;
    if (/^\s*\t/.test(body)) throw new Error(`line ${i + 1}: tabs are not allowed for indentation`);
    lines.push({ indent: body.length - body.trimStart().length, text: body.trim(), no: i + 1 });
  });
  if (lines.length === 0) return null;
  if (lines.length === 1 && !lines[0].text.startsWith('-') && !keyOf(lines[0].text)) return scalar(lines[0].text, lines[0].no);
  const at = { i: 0 };
  const value = parseBlock(lines, at, lines[0].indent);
  if (at.i < lines.length) throw new Error(`line ${lines[at.i].no}: unexpected indentation`);
  return value;
}
