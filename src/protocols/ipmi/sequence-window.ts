/**
 * Inbound session sequence tracking (IPMI 2.0 section 6.12.13): a packet is accepted once, and
 * only if it is newer than, or at most WINDOW behind, the highest number seen so far.
 */
const WINDOW = 16;

export class SequenceWindow {
  private highest = 0;
  private seen = new Set<number>();

  accept(seq: number): boolean {
    if (seq === 0) return false;
    if (this.highest === 0 || seq > this.highest) {
      this.highest = seq;
      this.seen.add(seq);
      for (const s of this.seen) if (s <= this.highest - WINDOW) this.seen.delete(s);
      return true;
    }
    if (seq <= this.highest - WINDOW || this.seen.has(seq)) return false;
    this.seen.add(seq);
    return true;
  }
}
