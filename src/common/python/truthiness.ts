/** Python truthiness of a JSON value (`if value:` / `not info.get(key)`). */
export function pyTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value !== null && typeof value === 'object') return Object.keys(value).length > 0;
  return value !== undefined && value !== null && value !== '' && value !== false && value !== 0;
}
