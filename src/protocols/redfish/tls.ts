// verify_ca → an HTTP(S) agent: true (system CAs), false (no verification), or a CA bundle file/directory.
// Strings are read the way Ironic reads redfish_verify_ca: an existing path first, then a boolean word.

import { readFileSync, readdirSync, statSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { join } from 'node:path';
import { RedfishConfigError } from './errors';

export type VerifyCa = boolean | string;

const TRUE_WORDS = ['1', 't', 'true', 'on', 'y', 'yes'];
const FALSE_WORDS = ['0', 'f', 'false', 'off', 'n', 'no'];

export function buildAgent(protocol: 'http:' | 'https:', verifyCa: VerifyCa): http.Agent {
  if (protocol === 'http:') return new http.Agent({ keepAlive: false });
  const resolved = resolveVerifyCa(verifyCa);
  if (resolved === true) return new https.Agent({ keepAlive: false });
  if (resolved === false) return new https.Agent({ keepAlive: false, rejectUnauthorized: false });
  return new https.Agent({ keepAlive: false, ca: resolved, rejectUnauthorized: true });
}

/** true / false / the PEM texts of the CA bundle. */
function resolveVerifyCa(verifyCa: VerifyCa): boolean | string[] {
  if (typeof verifyCa === 'boolean') return verifyCa;
  const stat = statOrNull(verifyCa);
  if (stat?.isFile()) return [readPem(verifyCa)];
  if (stat?.isDirectory()) return readCaDirectory(verifyCa);
  const word = verifyCa.trim().toLowerCase();
  if (TRUE_WORDS.includes(word)) return true;
  if (FALSE_WORDS.includes(word)) return false;
  throw new RedfishConfigError(`verify_ca must be a boolean or the path of a CA file/directory, not ${JSON.stringify(verifyCa)}`);
}

function readCaDirectory(dir: string): string[] {
  const pems = readdirSync(dir)
    .filter((name) => /\.(pem|crt|cer)$/i.test(name))
    .map((name) => readPem(join(dir, name)));
  if (pems.length === 0) throw new RedfishConfigError(`verify_ca directory ${dir} holds no .pem/.crt/.cer certificates`);
  return pems;
}

function readPem(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new RedfishConfigError(`Cannot read CA bundle ${path}: ${(err as Error).message}`);
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) throw new RedfishConfigError(`CA bundle ${path} holds no PEM certificate`);
  return text;
}

function statOrNull(path: string): ReturnType<typeof statSync> | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}
