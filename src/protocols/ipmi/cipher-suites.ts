/** RMCP+ cipher suites (IPMI 2.0 table 22-20) restricted to the algorithms we implement. */
import { IpmiConfigError } from './errors';

export type AuthAlg = 'none' | 'hmac-sha1' | 'hmac-sha256';
export type IntegrityAlg = 'none' | 'hmac-sha1-96' | 'hmac-sha256-128';
type ConfAlg = 'none' | 'aes-cbc-128';

export interface CipherSuite {
  id: number;
  auth: AuthAlg;
  integrity: IntegrityAlg;
  confidentiality: ConfAlg;
}

const SUITES: readonly CipherSuite[] = [
  { id: 0, auth: 'none', integrity: 'none', confidentiality: 'none' },
  { id: 1, auth: 'hmac-sha1', integrity: 'none', confidentiality: 'none' },
  { id: 2, auth: 'hmac-sha1', integrity: 'hmac-sha1-96', confidentiality: 'none' },
  { id: 3, auth: 'hmac-sha1', integrity: 'hmac-sha1-96', confidentiality: 'aes-cbc-128' },
  { id: 15, auth: 'hmac-sha256', integrity: 'none', confidentiality: 'none' },
  { id: 16, auth: 'hmac-sha256', integrity: 'hmac-sha256-128', confidentiality: 'none' },
  { id: 17, auth: 'hmac-sha256', integrity: 'hmac-sha256-128', confidentiality: 'aes-cbc-128' },
];

export const AUTH_ALG_IDS: Readonly<Record<AuthAlg, number>> = { none: 0, 'hmac-sha1': 1, 'hmac-sha256': 3 };
export const INTEGRITY_ALG_IDS: Readonly<Record<IntegrityAlg, number>> = {
  none: 0,
  'hmac-sha1-96': 1,
  'hmac-sha256-128': 4,
};
export const CONF_ALG_IDS: Readonly<Record<ConfAlg, number>> = { none: 0, 'aes-cbc-128': 1 };

export function cipherSuite(id: number): CipherSuite {
  const suite = SUITES.find((s) => s.id === id);
  if (!suite) throw new IpmiConfigError(`unsupported IPMI cipher suite ${id} (supported: ${SUITES.map((s) => s.id).join(', ')})`);
  return suite;
}

export function suiteFromAlgorithmIds(auth: number, integrity: number, conf: number): CipherSuite | undefined {
  return SUITES.find(
    (s) => AUTH_ALG_IDS[s.auth] === auth && INTEGRITY_ALG_IDS[s.integrity] === integrity && CONF_ALG_IDS[s.confidentiality] === conf,
  );
}

export function supportedCipherSuiteIds(): number[] {
  return SUITES.map((s) => s.id);
}
