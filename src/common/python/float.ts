/**
 * How Python spells a float (repr(), json.dumps): the same shortest round-trip digits as JS, but in
 * exponent form below 1e-4 and from 1e16 (JS waits for 1e-7 and 1e21), with at least two exponent
 * digits: `1e+16`, `1e-05`, `0.0001`. Finite numbers only. Python's `.0` on integral floats is left
 * to the caller: a JS number does not say whether it was an int or a float.
 */
export function pyFloatText(n: number): string {
  const abs = Math.abs(n);
  const text = abs !== 0 && (abs < 1e-4 || abs >= 1e16) ? n.toExponential() : String(n);
  return text.replace(/e([+-])(\d)$/, 'e$10$2');
}
