/** The server a client suite talks to: the clients made ready and a fresh target started before its tests. */
import { after, before } from 'node:test';
import { startTarget, type Target } from '../../support/target';
import type { ClientSet } from '../../support/python';

/** Registers the suite's before/after hooks; the returned function gives the running server. */
export function serverFor(clients: ClientSet): () => Target {
  let target: Target | undefined;
  before(async () => {
    await clients.prepare();
    target = await startTarget();
  });
  after(async () => {
    await target?.stop();
  });
  return () => {
    if (target === undefined) throw new Error('the suite\'s server has not started');
    return target;
  };
}
