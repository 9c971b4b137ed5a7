/**
 * Tells "the database server is unreachable" apart from every other database error, so callers
 * can answer 503 (retry later) instead of 500 while MySQL/MariaDB is down or restarting.
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND',
  'PROTOCOL_CONNECTION_LOST', 'PROTOCOL_SEQUENCE_TIMEOUT', 'ER_SERVER_SHUTDOWN', 'ER_CON_COUNT_ERROR',
  'SQLITE_BUSY', 'SQLITE_LOCKED',
]);

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    const { code, name, message, cause } = e as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    if (name === 'KnexTimeoutError') return true;
    if (typeof message === 'string' && /Knex: Timeout acquiring a connection|Connection lost: The server closed the connection|Can't add new command when connection is in closed state/.test(message)) return true;
    e = cause;
  }
  return false;
}
