// What the harness needs from a started server, whichever implementation it is.
import * as fs from 'node:fs';

export interface ServerHandle {
  label: string;
  port: number;
  dir: string;
  /** Log file to point at when something goes wrong. */
  logPath: string;
  stop(): Promise<void>;
}

export class ServerStartError extends Error {
  constructor(label: string, detail: string) {
    super(`${label} did not start: ${detail}`);
    this.name = 'ServerStartError';
  }
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** The end of a log file, for error messages. */
export function readTail(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').slice(-2000);
  } catch {
    return '';
  }
}
