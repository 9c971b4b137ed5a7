/**
 * Transfer slots: a server-wide cap and a cap per client address, so that
 * one host (which needs no handshake to open a transfer) cannot take every
 * slot. A slot is held from the accepted request until its transfer ends.
 */
import type { Peer } from './read-transfer';

type SlotGrant = { release: () => void } | 'duplicate' | 'busy';

export class Slots {
  /** Client endpoints with a transfer: a retransmitted RRQ must not start a second one. */
  private readonly endpoints = new Set<string>();
  private readonly perAddress = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly maxPerAddress: number,
  ) {}

  get size(): number {
    return this.endpoints.size;
  }

  take(peer: Peer): SlotGrant {
    const endpoint = `${peer.address}|${peer.port}`;
    if (this.endpoints.has(endpoint)) return 'duplicate';
    const held = this.perAddress.get(peer.address) ?? 0;
    if (this.endpoints.size >= this.max || held >= this.maxPerAddress) return 'busy';
    this.endpoints.add(endpoint);
    this.perAddress.set(peer.address, held + 1);
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      this.endpoints.delete(endpoint);
      const left = (this.perAddress.get(peer.address) ?? 1) - 1;
      if (left > 0) this.perAddress.set(peer.address, left);
      else this.perAddress.delete(peer.address);
    };
    return { release };
  }
}
