/**
 * An SSH session for running commands (ssh2, a kept pure-JS implementation): connect with a
 * password or a private key, verify the server's host key before any credential is sent, run
 * commands one after another on the one connection and collect their output and exit status.
 */
import { Client, type ConnectConfig } from 'ssh2';

interface SshTarget {
  host: string;
  port: number;
  username: string;
  password?: string;
  privateKey?: string;
  /** Decides on the server's public key blob; false aborts the connection before authentication. */
  verifyHostKey(key: Buffer): boolean;
  connectTimeoutMs: number;
}

interface CommandResult {
  stdout: string;
  stderr: string;
  code: number | null;
}

export interface SshSession {
  exec(command: string, timeoutMs: number): Promise<CommandResult>;
  close(): void;
}

/** Why a connection failed, in words for last_error (never the credentials). */
export class SshConnectError extends Error {}

export function openSsh(target: SshTarget): Promise<SshSession> {
  const client = new Client();
  let hostKeyRefused = false;
  const config: ConnectConfig = {
    host: target.host,
    port: target.port,
    username: target.username,
    password: target.password,
    privateKey: target.privateKey,
    readyTimeout: target.connectTimeoutMs,
    tryKeyboard: false,
    hostVerifier: (key: Buffer) => {
      hostKeyRefused = !target.verifyHostKey(key);
      return !hostKeyRefused;
    },
  };
  return new Promise((resolve, reject) => {
    client.once('ready', () => resolve(session(client)));
    client.once('error', (err: Error) => {
      client.end();
      reject(new SshConnectError(hostKeyRefused ? 'host key verification failed' : err.message));
    });
    try {
      client.connect(config);
    } catch (err) {
      reject(new SshConnectError((err as Error).message));
    }
  });
}

function session(client: Client): SshSession {
  return {
    exec: (command, timeoutMs) => runOne(client, command, timeoutMs),
    close: () => client.end(),
  };
}

function runOne(client: Client, command: string, timeoutMs: number): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    client.exec(command, (err, stream) => {
      if (err) return reject(err);
      const out: Buffer[] = [];
      const errOut: Buffer[] = [];
      let code: number | null = null;
      const timer = setTimeout(() => {
        stream.close();
        reject(new Error(`command timed out after ${timeoutMs / 1000} s`));
      }, timeoutMs);
      stream.on('data', (chunk: Buffer) => out.push(chunk));
      stream.stderr.on('data', (chunk: Buffer) => errOut.push(chunk));
      stream.on('exit', (exitCode: number | null) => { code = exitCode; });
      stream.on('close', () => {
        clearTimeout(timer);
        resolve({ stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(errOut).toString('utf8'), code });
      });
    });
  });
}
