/**
 * Logging in oslo.log's spirit: one line per record to stderr (or [DEFAULT]log_file), with the
 * level set by [DEFAULT]debug. Kept tiny on purpose: hot paths log nothing at info level. Every
 * line is masked (oslo's password patterns, URL userinfo) so no secret reaches a log.
 *
 * Lines written while serving a request carry its request id, and lines written while the conductor
 * holds a node carry the node's uuid: both travel with the work (AsyncLocalStorage), from the API
 * request into the conductor work it starts. The text line shows them as `[req-… <node uuid>]`
 * after the logger name; [DEFAULT]use_json writes each record as one JSON object instead, with
 * oslo.log's JSONFormatter key names (`context.request_id`, `extra.node_uuid`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { maskMessage } from './mask';

type Level = 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR';
const ORDER: Record<Level, number> = { DEBUG: 10, INFO: 20, WARNING: 30, ERROR: 40 };

/** What a line is about: the request being served, the node being worked on. */
interface LogContext {
  readonly requestId?: string;
  readonly nodeUuid?: string;
}

const context = new AsyncLocalStorage<LogContext>();

let threshold = ORDER.INFO;
let json = false;
let sink: (line: string) => void = (line) => process.stderr.write(line + '\n');

export function configureLogging(opts: { debug: boolean; logFile: string | null; json?: boolean }): void {
  threshold = opts.debug ? ORDER.DEBUG : ORDER.INFO;
  json = opts.json ?? false;
  if (opts.logFile) {
    const fd = fs.openSync(opts.logFile, 'a');
    sink = (line) => fs.writeSync(fd, line + '\n');
  }
}

/** Runs `fn` with `more` added to the current log context (request id, node uuid). */
export function withLogContext<T>(more: LogContext, fn: () => T): T {
  return context.run({ ...context.getStore(), ...more }, fn);
}

/** The request id the current work serves, if any (for RPC calls to carry it to the conductor). */
export function currentRequestId(): string | null {
  return context.getStore()?.requestId ?? null;
}

function textLine(level: Level, now: Date, message: string, ctx: LogContext | undefined): string {
  const about = ctx && (ctx.requestId || ctx.nodeUuid) ? `[${ctx.requestId ?? '-'}${ctx.nodeUuid ? ` ${ctx.nodeUuid}` : ''}] ` : '';
  return `${now.toISOString()} ${process.pid} ${level} ironic-ts ${about}${message}`;
}

/** oslo.log's JSONFormatter keys, those ironic-ts has. */
function jsonLine(level: Level, now: Date, message: string, ctx: LogContext | undefined): string {
  return JSON.stringify({
    message,
    asctime: now.toISOString(),
    created: now.getTime() / 1000,
    levelname: level,
    levelno: ORDER[level],
    name: 'ironic-ts',
    process: process.pid,
    hostname: os.hostname(),
    context: { request_id: ctx?.requestId ?? null },
    extra: { node_uuid: ctx?.nodeUuid ?? null },
  });
}

function emit(level: Level, message: string): void {
  if (ORDER[level] < threshold) return;
  const masked = maskMessage(message);
  const now = new Date();
  const ctx = context.getStore();
  sink(json ? jsonLine(level, now, masked, ctx) : textLine(level, now, masked, ctx));
}

export const log = {
  debug: (message: string): void => emit('DEBUG', message),
  info: (message: string): void => emit('INFO', message),
  warning: (message: string): void => emit('WARNING', message),
  error: (message: string): void => emit('ERROR', message),
};
