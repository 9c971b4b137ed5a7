/**
 * Lets pending I/O (API requests in the same process) run between items of a long periodic scan:
 * better-sqlite3 answers synchronously, so an await alone never gives the event loop a turn.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
