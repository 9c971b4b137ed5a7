/** Open event streams counted per authenticated user and per client address (an IPv6 /64). */
import { clientKey } from '../auth/failure-limiter';

export class StreamLimits {
  private readonly perUser = new Map<string, number>();
  private readonly perAddress = new Map<string, number>();

  constructor(private readonly maxPerUser: number, private readonly maxPerAddress: number) {}

  /** A release function, or null when the user or the address already holds its maximum. */
  acquire(user: string | null, address: string): (() => void) | null {
    const addressKey = clientKey(address);
    if ((this.perAddress.get(addressKey) ?? 0) >= this.maxPerAddress) return null;
    if (user !== null && (this.perUser.get(user) ?? 0) >= this.maxPerUser) return null;
    bump(this.perAddress, addressKey, 1);
    if (user !== null) bump(this.perUser, user, 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      bump(this.perAddress, addressKey, -1);
      if (user !== null) bump(this.perUser, user, -1);
    };
  }
}

function bump(counts: Map<string, number>, key: string, by: number): void {
  const next = (counts.get(key) ?? 0) + by;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}
