/**
 * JSON text as Python's json.dumps writes it (", " and ": " separators, non-ASCII escaped as
 * \uXXXX), so clients see Ironic's exact bytes.
 *
 * Built from the native JSON.stringify with a one-space indent rather than by walking the value:
 * indented output already has Python's ": " after keys, and its line breaks plus indentation sit
 * only between tokens (a newline inside a string is always escaped as \n), so turning ",\n  " into
 * ", " and dropping the other breaks yields Python's layout. Empty containers stay "[]" / "{}".
 * Walking a 1,000-node page in JS built millions of short-lived strings.
 */
const HAS_NON_ASCII = /[\u007f-\uffff]/;
const COMMA_BREAK = /,\n */g;
const BREAK = /\n */g;

export function pyJsonDumps(value: unknown): string {
  const indented = JSON.stringify(value, null, 1) as string | undefined;
  if (indented === undefined) return 'null';
  const text = indented.replace(COMMA_BREAK, ', ').replace(BREAK, '');
  return HAS_NON_ASCII.test(text) ? escapeNonAscii(text) : text;
}

/** Non-ASCII can only sit inside JSON strings, so escaping the whole text is safe. */
function escapeNonAscii(text: string): string {
  return text.replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
