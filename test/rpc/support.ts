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
 * Creates and manages a dozen nodes through `client` and checks each call reached the node's
 * owner on the ring and the node became manageable; returns the uuids and the owners seen.
 */
export async function checkRingRouting(client: ConductorClient, rings: RingManager, db: Database, calls: CallLog):
  Promise<{ uuids: string[]; owners: Set<string> }> {
  const uuids = Array.from({ length: 12 }, () => randomUUID());
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
