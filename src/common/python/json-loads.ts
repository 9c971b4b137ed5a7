/** json.loads for text Python wrote, including its non-standard NaN/Infinity tokens. */
const MARK = '\u2063pyjson-number\u2063';

export function pythonJsonLoads(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    if (!/NaN|Infinity/.test(text)) throw err;
    const marked = text.replace(/(?<=[\[:,]\s*)(-?Infinity|NaN)(?=\s*[,\]}])/g, `"${MARK}$1"`);
    return JSON.parse(marked, (_k, v: unknown) => {
      if (typeof v === 'string' && v.startsWith(MARK)) return Number(v.slice(MARK.length));
      return v;
    });
  }
}
