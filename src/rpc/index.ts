/**
 * createConductorClient: the ConductorApi the API layer uses. `rpc_transport = none` calls the
 * in-process conductor; `oslo` routes each call over RabbitMQ and `json-rpc` over HTTP to the
 * conductor that owns the node on the hash ring. serveConductorRpc is the conductor's side.
 */
import type { Config } from '../conf/config';
import type { Database } from '../db/connection';
import type { NodeRecord, PortRecord, PortgroupRecord } from '../db/models';
import * as allocationsRepo from '../db/repositories/allocations';
import * as connectorsRepo from '../db/repositories/volume-connectors';
import * as targetsRepo from '../db/repositories/volume-targets';
import * as nodes from '../db/repositories/nodes';
import { findPort, findPortgroup } from '../db/repositories/conductor-port-queries';
import { MANAGER_TOPIC, RingManager } from './ring-manager';
import type { ConductorApi } from './conductor-api';
import { AmqpCaller } from './amqp-client';
import { serveAmqpRpc } from './amqp-server';
import { JsonRpcCaller } from './json-rpc-client';
import { serveJsonRpc } from './json-rpc-server';
import { callLocal, withIronicErrors } from './dispatch';
import { METHOD_NAMES, METHOD_ROUTES, MethodName } from './methods';

export type ConductorClient = ConductorApi & { close(): Promise<void> };

type RouteNode = Pick<NodeRecord, 'uuid' | 'driver' | 'conductor_group'>;

async function nodeById(db: Database, id: number | null | undefined): Promise<RouteNode | null> {
  return id === null || id === undefined ? null : nodes.find(db, id);
}

/** The node a call is about, for the hash ring; null means any conductor will do. */
async function routingNode(db: Database, method: MethodName, args: unknown[]): Promise<RouteNode | null> {
  switch (METHOD_ROUTES[method]) {
    case 'node':
      return nodes.find(db, String(args[0]));
    case 'values': {
      const values = args[0] as Partial<NodeRecord & PortRecord & PortgroupRecord>;
      if (method === 'createNode') {
        return { uuid: String(values.uuid ?? ''), driver: values.driver ?? null, conductor_group: values.conductor_group ?? '' };
      }
      return nodeById(db, values.node_id);
    }
    case 'port':
      return nodeById(db, (await findPort(db, String(args[0]))).node_id);
    case 'portgroup':
      return nodeById(db, (await findPortgroup(db, String(args[0]))).node_id);
    case 'volumeConnector':
      return nodeById(db, (await connectorsRepo.get(db, String(args[0]))).node_id);
    case 'volumeTarget':
      return nodeById(db, (await targetsRepo.get(db, String(args[0]))).node_id);
    case 'allocation':
      return nodeById(db, (await allocationsRepo.get(db, String(args[0]))).node_id);
    case 'any':
      return null;
  }
}

function localClient(local: ConductorApi): ConductorClient {
  const client = Object.create(local) as Record<string, unknown>;
  for (const method of METHOD_NAMES) client[method] = (...args: unknown[]) => callLocal(local, method, args);
  client.close = async () => undefined;
  return client as unknown as ConductorClient;
}

/** Sends a routed call: to the node's conductor, or (node null) to any conductor. */
type Send = (rings: RingManager, node: RouteNode | null, method: MethodName, args: unknown[]) => Promise<unknown>;

function routedClient(conf: Config, db: Database, send: Send, close: () => Promise<void>): ConductorClient {
  const rings = new RingManager(conf, db);
  const client: Record<string, unknown> = {
    topicFor: (node: RouteNode) => rings.topicFor(node),
    conductorHostsFor: (nodes: RouteNode[]) => rings.hostsFor(nodes),
    close,
  };
  for (const method of METHOD_NAMES) {
    // The routing lookups read the database here, in the API process: their errors leave as Ironic's too.
    client[method] = (...args: unknown[]) => withIronicErrors(async () => {
      const node = await routingNode(db, method, args);
      return send(rings, node && node.uuid ? node : null, method, args);
    });
  }
  return client as unknown as ConductorClient;
}

function amqpClient(conf: Config, db: Database): ConductorClient {
  const caller = new AmqpCaller(conf);
  return routedClient(conf, db, async (rings, node, method, args) =>
    caller.call(node ? await rings.topicFor(node) : MANAGER_TOPIC, method, args), () => caller.close());
}

/** Calls for this process's own conductor skip HTTP when it runs in-process (the `ironic` command). */
function jsonRpcClient(conf: Config, db: Database, local: ConductorApi | undefined): ConductorClient {
  const caller = new JsonRpcCaller(conf);
  const ownHost = conf.str('DEFAULT', 'host');
  return routedClient(conf, db, async (rings, node, method, args) => {
    const host = node ? await rings.hostFor(node) : await rings.anyHost();
    if (local && host === ownHost) return callLocal(local, method, args);
    return caller.call(host, method, args);
  }, () => caller.close());
}

export async function createConductorClient(opts: { conf: Config; db: Database; local?: ConductorApi }): Promise<ConductorClient> {
  const transport = opts.conf.str('DEFAULT', 'rpc_transport');
  if (transport === 'oslo') return amqpClient(opts.conf, opts.db);
  if (transport === 'json-rpc') return jsonRpcClient(opts.conf, opts.db, opts.local);
  if (transport === 'none') {
    if (!opts.local) throw new Error('rpc_transport = none needs an in-process conductor');
    return localClient(opts.local);
  }
  throw new Error(`rpc_transport = ${transport} is not supported by ironic-ts`);
}

export interface RpcServer {
  close(): Promise<void>;
}

/** The conductor's RPC server for [DEFAULT]rpc_transport; none serves nothing (single process). */
export async function serveConductorRpc(conf: Config, local: ConductorApi): Promise<RpcServer> {
  const transport = conf.str('DEFAULT', 'rpc_transport');
  if (transport === 'oslo') return serveAmqpRpc(conf, local);
  if (transport === 'json-rpc') return serveJsonRpc(conf, local);
  return { close: async () => undefined };
}
