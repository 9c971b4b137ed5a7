/**
 * Blowfish's initial P-array and S-boxes are the fractional hexadecimal digits of pi, taken as
 * 32-bit words in order (18 for P, then 4 × 256 for S). Rather than carry a 4 KiB table, compute
 * them once with Machin's formula, pi = 16·atan(1/5) − 4·atan(1/239), in BigInt fixed point.
 */
const WORDS = 18 + 4 * 256;
const GUARD_BITS = 64n;

function arctanInverse(x: bigint, one: bigint): bigint {
  // atan(1/x) = Σ (−1)^k / ((2k+1)·x^(2k+1))
  const xSquared = x * x;
  let power = one / x;
  let sum = power;
  for (let k = 1n; power !== 0n; k += 1n) {
    power /= xSquared;
    const term = power / (2n * k + 1n);
    sum = k % 2n === 1n ? sum - term : sum + term;
  }
  return sum;
}

let cached: Uint32Array | null = null;

/** The first 1042 32-bit words of pi's fractional part (0x243f6a88, 0x85a308d3, ...). */
export function piWords(): Uint32Array {
  if (cached) return cached;
  const bits = BigInt(WORDS * 32) + GUARD_BITS;
  const one = 1n << bits;
  const pi = 16n * arctanInverse(5n, one) - 4n * arctanInverse(239n, one);
  const fraction = (pi - 3n * one) >> GUARD_BITS;
  const words = new Uint32Array(WORDS);
  for (let i = 0; i < WORDS; i += 1) {
    words[i] = Number((fraction >> BigInt((WORDS - 1 - i) * 32)) & 0xffffffffn);
  }
  cached = words;
  return words;
}
