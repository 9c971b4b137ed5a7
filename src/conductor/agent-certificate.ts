/**
 * The TLS certificate an agent sends with its heartbeat (agent_verify_ca, IPA's auto-generated
 * one), stored as [agent]certificates_path/<node uuid>.crt as Ironic's store_agent_certificate
 * does; the node keeps the file's path, and a different certificate later is refused.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { InvalidParameterValue } from '../common/errors';
import { log } from '../common/log';
import type { Config } from '../conf/config';
import type { NodeRecord } from '../db/models';

export async function storeAgentCertificate(conf: Config, node: Pick<NodeRecord, 'uuid' | 'driver_internal_info'>, pem: string): Promise<string> {
  const existing = (node.driver_internal_info ?? {}).agent_verify_ca;
  if (typeof existing === 'string' && existing) {
    const text = await fsp.readFile(existing, 'utf8').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    if (text !== null) {
      if (text.trim() !== pem.trim()) {
        log.error(`Content mismatch for agent_verify_ca for node ${node.uuid}`);
        throw new InvalidParameterValue('Detected change in ramdisk provided "agent_verify_ca"');
      }
      return existing;
    }
    log.info(`Current agent_verify_ca was not found for node ${node.uuid}, assuming take over and storing`);
  }
  const dir = conf.str('agent', 'certificates_path');
  const file = path.join(dir, `${node.uuid}.crt`);
  await fsp.mkdir(dir, { recursive: true });
  await fsp.writeFile(file, pem);
  return file;
}
