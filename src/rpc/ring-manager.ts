/**
 * Hash rings per "<conductor_group>:<hardware type>" over live conductors, rebuilt every
 * [DEFAULT]hash_ring_reset_interval seconds or on a miss (hash_ring.HashRingManager).
 */
import { NoValidHost, TemporaryFailure } from '../common/errors';
import type { Config } from '../conf/config';
import type { Database } from '../db/connection';
import { activeHardwareTypeHosts } from '../db/repositories/conductor-registry-queries';
import { HashRing } from './hash-ring';

export const MANAGER_TOPIC = 'ironic.conductor_manager';

/** The ring a node is placed on: its conductor group and hardware type. */
function ringKey(node: { driver: string | null; conductor_group: string }): string {
  return `${node.conductor_group ?? ''}:${node.driver}`;
}

export class RingManager {
  private rings: Map<string, HashRing> | null = null;
  private loadedAt = 0;

  constructor(private readonly conf: Config, private readonly db: Database) {}

  reset(): void {
    this.rings = null;
  }

  private async load(): Promise<Map<string, HashRing>> {
    const interval = this.conf.int('DEFAULT', 'hash_ring_reset_interval') * 1000;
    if (this.rings && Date.now() - this.loadedAt < interval) return this.rings;
    const hosts = await activeHardwareTypeHosts(this.db, this.conf.int('conductor', 'heartbeat_timeout'));
    const partitions = 2 ** this.conf.int('DEFAULT', 'hash_partition_exponent');
    const algorithm = this.conf.str('DEFAULT', 'hash_ring_algorithm') || 'md5';
    this.rings = new Map([...hosts].map(([key, list]) => [key, new HashRing(list, partitions, algorithm)]));
    this.loadedAt = Date.now();
    return this.rings;
  }

  /** Host for the node, rebuilding the rings once on a miss as Ironic does. */
  async hostFor(node: { uuid: string; driver: string | null; conductor_group: string }): Promise<string> {
    for (const attempt of [0, 1]) {
      if (attempt) this.reset();
      const rings = await this.load();
      const ring = rings.get(ringKey(node));
      const host = ring?.hostFor(node.uuid);
      if (host) return host;
      if (attempt && rings.size === 0) throw new TemporaryFailure();
    }
    throw new NoValidHost({
      reason: `No conductor service registered which supports driver ${node.driver} for conductor group "${node.conductor_group ?? ''}". ` +
        'Ensure the driver is valid and enabled.',
    });
  }

  /** hostFor for many nodes with one ring load (and one rebuild on a miss); null where no conductor can take a node. */
  async hostsFor(nodes: ReadonlyArray<{ uuid: string; driver: string | null; conductor_group: string }>):
    Promise<Array<string | null>> {
    const lookup = (rings: Map<string, HashRing>): Array<string | null> =>
      nodes.map((n) => rings.get(ringKey(n))?.hostFor(n.uuid) ?? null);
    let hosts = lookup(await this.load());
    if (hosts.includes(null)) {
      this.reset();
      hosts = lookup(await this.load());
    }
    return hosts;
  }

  /** Any live conductor, for calls no node routes (ConductorAPI.get_random_topic). */
  async anyHost(): Promise<string> {
    for (const attempt of [0, 1]) {
      if (attempt) this.reset();
      const hosts = [...new Set([...(await this.load()).values()].flatMap((ring) => ring.hosts))];
      if (hosts.length > 0) return hosts[Math.floor(Math.random() * hosts.length)];
    }
    throw new TemporaryFailure();
  }

  async topicFor(node: { uuid: string; driver: string | null; conductor_group: string }): Promise<string> {
    return `${MANAGER_TOPIC}.${await this.hostFor(node)}`;
  }

  /** Whether this host owns the node (BaseConductorManager._mapped_to_this_conductor). */
  async isMine(host: string, node: { uuid: string; driver: string | null; conductor_group: string }): Promise<boolean> {
    try {
      return (await this.hostFor(node)) === host;
    } catch {
      return false;
    }
  }
}
