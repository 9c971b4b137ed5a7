/**
 * Consistent hash ring as tooz's HashRing (used by ironic/common/hash_ring.py): each host owns
 * `partitions` points, point i being md5(host repeated i+2 times) read as a big integer; a node
 * maps to the first point after md5(node uuid).
 */
import { createHash, Hash } from 'node:crypto';

/** A digest as hex: all digests of one algorithm have the same length, so string order is numeric order. */
function point(hash: Hash): string {
  return hash.copy().digest('hex');
}

export class HashRing {
  private readonly ring = new Map<string, string>();
  private readonly points: string[];
  /** Set when one host holds every point: then every key maps to it and nothing needs hashing. */
  private readonly onlyHost: string | null;

  constructor(readonly hosts: string[], partitions = 32, private readonly algorithm = 'md5') {
    for (const host of new Set(hosts)) {
      const key = Buffer.from(host, 'utf8');
      const h = createHash(algorithm).update(key);
      for (let r = 0; r < partitions; r++) {
        h.update(key);
        this.ring.set(point(h), host);
      }
    }
    this.points = [...this.ring.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const owners = new Set(this.ring.values());
    this.onlyHost = owners.size === 1 ? [...owners][0] : null;
  }

  /** bisect_right of the data's hash into the sorted points, wrapping to 0. */
  private partition(data: string): number {
    const target = createHash(this.algorithm).update(Buffer.from(data, 'utf8')).digest('hex');
    let lo = 0;
    let hi = this.points.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (target < this.points[mid]) hi = mid;
      else lo = mid + 1;
    }
    return lo < this.points.length ? lo : 0;
  }

  /** The host owning `data` (e.g. a node UUID), or null for an empty ring. */
  hostFor(data: string): string | null {
    if (this.points.length === 0) return null;
    if (this.onlyHost !== null) return this.onlyHost;
    return this.ring.get(this.points[this.partition(data)]) ?? null;
  }
}
