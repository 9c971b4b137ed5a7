/**
 * Generated JSON as a small tree, written out by hand: objects are entry lists, so a body can hold
 * keys JSON.stringify would never write from a JS object (duplicates, an own `__proto__`), and
 * numbers are their literal text, so `1e400` or a 30-digit integer reach the server unrounded.
 */
export type JsonNode = null | boolean | string | JsonNumber | JsonObject | JsonNode[];

export interface JsonNumber {
  num: string;
}

export interface JsonObject {
  entries: Array<[string, JsonNode]>;
}

export function num(text: string): JsonNumber {
  return { num: text };
}

export function obj(entries: Array<[string, JsonNode]>): JsonObject {
  return { entries };
}

export function toJsonText(node: JsonNode): string {
  if (node === null || typeof node === 'boolean') return String(node);
  if (typeof node === 'string') return JSON.stringify(node);
  if (Array.isArray(node)) return `[${node.map(toJsonText).join(', ')}]`;
  if (isNumber(node)) return node.num;
  return `{${node.entries.map(([k, v]) => `${JSON.stringify(k)}: ${toJsonText(v)}`).join(', ')}}`;
}

function isNumber(node: JsonNumber | JsonObject): node is JsonNumber {
  return Object.hasOwn(node, 'num');
}
