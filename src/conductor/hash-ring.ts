/**
 * Consistent hash ring as tooz's HashRing (used by ironic/common/hash_ring.py): each host owns
 * `partitions` points, point i being md5(host repeated i+2 times) read as a big integer; a node
 * maps to the first point after md5(node uuid).
 */
import { createHash, Hash } from 'node:crypto';

function toInt(hash: Hash): bigint {
  return BigInt(`0x${hash.copy().digest('hex')}`);
}

export class HashRing {
  private readonly ring = new Map<bigint, string>();
  private readonly points: bigint[];

  constructor(readonly hosts: string[], partitions = 32, private readonly algorithm = 'md5') {
    for (const host of new Set(hosts)) {
      const key = Buffer.from(host, 'utf8');
      const h = createHash(algorithm).update(key);
      for (let r = 0; r < partitions; r++) {
        h.update(key);
        this.ring.set(toInt(h), host);
      }
    }
    this.points = [...this.ring.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** bisect_right of the data's hash into the sorted points, wrapping to 0. */
  private partition(data: string): number {
    const target = BigInt(`0x${createHash(this.algorithm).update(Buffer.from(data, 'utf8')).digest('hex')}`);
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
    return this.ring.get(this.points[this.partition(data)]) ?? null;
  }
}
