import { pyRepr } from './repr';

/** Python's str() of a JSON value, as `%s` formats it in Ironic's messages. */
export function pyStr(value: unknown): string {
  return typeof value === 'string' ? value : pyRepr(value);
}
