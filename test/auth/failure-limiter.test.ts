/** The failed-authentication limiter: its window, its refunds, its client keys and its bounded memory. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { clientKey, FailureLimiter, type Admission } from '../../src/auth/failure-limiter';

const LIMITS = { maxFailures: 3, windowMs: 10_000, maxClients: 5 };

function clock(): { now: () => number; advance(ms: number): void } {
  let t = 1_000_000;
  return { now: () => t, advance: (ms) => { t += ms; } };
}

function allowed(a: Admission): boolean {
  return a.allowed;
}

describe('FailureLimiter', () => {
  it('refuses a client after maxFailures until its window ends, with the seconds left', () => {
    const c = clock();
    const limiter = new FailureLimiter(LIMITS, c.now);
    for (let i = 0; i < 3; i++) assert.ok(allowed(limiter.admit('192.0.2.1')));
    c.advance(2_500);
    assert.deepEqual(limiter.admit('192.0.2.1'), { allowed: false, retryAfterSeconds: 8 });
    // Others are not affected.
    assert.ok(allowed(limiter.admit('192.0.2.2')));
    c.advance(7_500);
    assert.ok(allowed(limiter.admit('192.0.2.1')));
  });

  it('gives back an attempt that succeeded', () => {
    const limiter = new FailureLimiter(LIMITS, clock().now);
    for (let i = 0; i < 10; i++) {
      const a = limiter.admit('192.0.2.1');
      assert.ok(a.allowed);
      a.refund();
    }
    assert.ok(allowed(limiter.admit('192.0.2.1')));
  });

  it('counts concurrent attempts before they finish', () => {
    const limiter = new FailureLimiter(LIMITS, clock().now);
    const pending = [1, 2, 3].map(() => limiter.admit('192.0.2.1'));
    assert.ok(pending.every(allowed));
    assert.equal(limiter.admit('192.0.2.1').allowed, false);
  });

  it('keys IPv6 clients by their /64 and IPv4-mapped ones as IPv4', () => {
    assert.equal(clientKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
    assert.equal(clientKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff'), '2001:db8:1:2::/64');
    assert.equal(clientKey('2001:db8::1'), '2001:db8:0:0::/64');
    assert.equal(clientKey('::1'), '0:0:0:0::/64');
    assert.equal(clientKey('::ffff:192.0.2.7'), '192.0.2.7');
    assert.equal(clientKey('192.0.2.7'), '192.0.2.7');
    const limiter = new FailureLimiter(LIMITS, clock().now);
    for (let i = 1; i <= 3; i++) assert.ok(allowed(limiter.admit(`2001:db8:1:2::${i}`)));
    assert.equal(limiter.admit('2001:db8:1:2:ffff::9').allowed, false);
  });

  it('keeps at most maxClients windows, dropping expired and then the oldest', () => {
    const c = clock();
    const limiter = new FailureLimiter(LIMITS, c.now);
    for (let i = 0; i < 3; i++) limiter.admit('198.51.100.1');
    for (let i = 0; i < 1000; i++) {
      limiter.admit(`203.0.113.${i % 250}/${i}`);
      assert.ok(limiter.size <= LIMITS.maxClients);
    }
    // The oldest window made room: its client starts afresh.
    assert.ok(allowed(limiter.admit('198.51.100.1')));
    c.advance(LIMITS.windowMs);
    limiter.admit('192.0.2.99');
    assert.equal(limiter.size, 1);
  });
});
