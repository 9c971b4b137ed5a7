/**
 * timeutils.utcnow() as Python prints it: str() separates date and time with a space,
 * isoformat() with a `T`; microseconds follow unless they are zero.
 */
export function pythonUtcNow(sep: ' ' | 'T' = ' '): string {
  const iso = new Date().toISOString();
  const millis = iso.slice(20, 23);
  return `${iso.slice(0, 10)}${sep}${iso.slice(11, 19)}${millis === '000' ? '' : `.${millis}000`}`;
}
