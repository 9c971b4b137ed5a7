/** The character codes of JSON's structure, for the byte-level passes over JSON text. */
export const JSON_CHARS = {
  QUOTE: 0x22,
  BACKSLASH: 0x5c,
  COMMA: 0x2c,
  COLON: 0x3a,
  SPACE: 0x20,
  MINUS: 0x2d,
  OPEN_BRACKET: 0x5b,
  CLOSE_BRACKET: 0x5d,
  OPEN_BRACE: 0x7b,
  CLOSE_BRACE: 0x7d,
} as const;
