/**
 * utils.hash_password: the rescue password as crypt(3) with a fresh salt, in the method
 * [conductor]rescue_password_hash_algorithm names (sha256 -> `$5$`, sha512 -> `$6$`). The
 * agent writes it as is into the rescue user's shadow entry.
 */
import type { Config } from '../conf/config';
import { sha256Crypt, sha512Crypt } from '../common/sha-crypt';


export function hashRescuePassword(conf: Config, password: string): string {
  return conf.str('conductor', 'rescue_password_hash_algorithm') === 'sha512' ? sha512Crypt(password) : sha256Crypt(password);
}
