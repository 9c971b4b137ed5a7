/**
 * Logging in oslo.log's spirit: one line per record to stderr (or [DEFAULT]log_file), with the
 * level set by [DEFAULT]debug. Kept tiny on purpose: hot paths log nothing at info level. Every
 * line is masked (oslo's password patterns, URL userinfo) so no secret reaches a log.
 */
import * as fs from 'node:fs';
import { maskMessage } from './mask';

type Level = 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR';
const ORDER: Record<Level, number> = { DEBUG: 10, INFO: 20, WARNING: 30, ERROR: 40 };

let threshold = ORDER.INFO;
let sink: (line: string) => void = (line) => process.stderr.write(line + '\n');

export function configureLogging(opts: { debug: boolean; logFile: string | null }): void {
  threshold = opts.debug ? ORDER.DEBUG : ORDER.INFO;
  if (opts.logFile) {
    const fd = fs.openSync(opts.logFile, 'a');
    sink = (line) => fs.writeSync(fd, line + '\n');
  }
}

function emit(level: Level, message: string): void {
  if (ORDER[level] < threshold) return;
  sink(`${new Date().toISOString()} ${process.pid} ${level} ironic-ts ${maskMessage(message)}`);
}

export const log = {
  debug: (message: string): void => emit('DEBUG', message),
  info: (message: string): void => emit('INFO', message),
  warning: (message: string): void => emit('WARNING', message),
  error: (message: string): void => emit('ERROR', message),
};
