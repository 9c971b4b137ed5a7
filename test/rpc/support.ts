/** What the transport tests share: a conductor that records its calls, and the hash-ring routing check. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { RingManager } from '../../src/rpc/ring-manager';
import type { Database } from '../../src/db/connection';
import type { ConductorClient } from '../../src/rpc';
import type { ConductorApi } from '../../src/rpc/conductor-api';
import { stable, waitForNode } from '../conductor/support';

/** Calls seen per conductor host, as `method:<first argument or its uuid>`. */
export type CallLog = Map<string, string[]>;

/** The conductor's API, recording in `calls` which host served which call. */
export function recording(calls: CallLog, host: string, api: ConductorApi): ConductorApi {
  return new Proxy(api, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const first = args[0] && typeof args[0] === 'object' ? (args[0] as { uuid?: string }).uuid : args[0];
        calls.set(host, [...(calls.get(host) ?? []), `${String(prop)}:${String(first)}`]);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/**
 * Picks a dozen nodes the ring spreads over `hosts` (half each; the ring must hold them all),
 * creates and manages them through `client`, and checks each call reached the node's owner on
 * the ring and the node became manageable; returns the uuids and the owners seen.
 */
export async function checkRingRouting(client: ConductorClient, rings: RingManager, db: Database, calls: CallLog,
  hosts: string[]): Promise<{ uuids: string[]; owners: Set<string> }> {
  const uuids = await spreadOver(rings, hosts, 12);
  for (const uuid of uuids) await client.createNode({ uuid, name: `n-${uuid.slice(0, 8)}`, driver: 'fake-hardware' });
  for (const uuid of uuids) await client.doProvisioningAction(uuid, 'manage');
  const owners = new Set<string>();
  for (const uuid of uuids) {
    const owner = await rings.hostFor({ uuid, driver: 'fake-hardware', conductor_group: '' });
    owners.add(owner);
    assert.ok(calls.get(owner)?.includes(`createNode:${uuid}`), `${uuid} created by ${owner}`);
    assert.ok(calls.get(owner)?.includes(`doProvisioningAction:${uuid}`), `${uuid} managed by ${owner}`);
    assert.equal((await waitForNode(db, uuid, stable('manageable'))).provision_state, 'manageable');
  }
  return { uuids, owners };
}

/** `count` random uuids, an equal share owned by each of `hosts`; random draws alone could miss a host. */
async function spreadOver(rings: RingManager, hosts: string[], count: number): Promise<string[]> {
  const share = count / hosts.length;
  const picked = new Map(hosts.map((h) => [h, [] as string[]]));
  for (let tries = 0; tries < 2000 && [...picked.values()].some((l) => l.length < share); tries++) {
    const uuid = randomUUID();
    const list = picked.get(await rings.hostFor({ uuid, driver: 'fake-hardware', conductor_group: '' }));
    assert.ok(list, 'the ring only names the conductors started');
    if (list.length < share) list.push(uuid);
  }
  for (const [host, list] of picked) assert.equal(list.length, share, `the ring gives ${host} a share of the nodes`);
  return [...picked.values()].flat();
}
