/**
 * oslo.config's INI dialect: `[group]` sections, `key = value` or `key: value`, `#`/`;` comments,
 * continuation lines indented under a key, and repeated keys (kept in order for MultiStrOpt).
 */
export interface IniEntry {
  group: string;
  name: string;
  value: string;
  file: string;
  line: number;
}

class IniSyntaxError extends Error {
  constructor(file: string, line: number, detail: string) {
    super(`${file}:${line}: ${detail}`);
    this.name = 'IniSyntaxError';
  }
}

export function parseIni(text: string, file = '<string>'): IniEntry[] {
  const entries: IniEntry[] = [];
  let group: string | null = null;
  let last: IniEntry | null = null;
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, index) => {
    const lineNo = index + 1;
    if (/^\s*([#;].*)?$/.test(raw)) {
      last = null;
      return;
    }
    if (/^\s/.test(raw) && last) {
      // oslo joins continuation lines with a newline.
      last.value += '\n' + raw.trim();
      return;
    }
    const section = /^\[([^\]]+)\]\s*$/.exec(raw.trim());
    if (section) {
      group = section[1].trim();
      last = null;
      return;
    }
    const kv = /^([^=:\s][^=:]*?)\s*[=:]\s*(.*)$/.exec(raw.trim());
    if (!kv) throw new IniSyntaxError(file, lineNo, `cannot parse line: ${raw.trim()}`);
    if (group === null) throw new IniSyntaxError(file, lineNo, 'option outside of any [group]');
    last = { group, name: kv[1].trim(), value: unquote(kv[2].trim()), file, line: lineNo };
    entries.push(last);
  });
  return entries;
}

function unquote(value: string): string {
  if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.endsWith(value[0])) {
    return value.slice(1, -1);
  }
  return value;
}
