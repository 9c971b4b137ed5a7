/** `ironic-conductor`: a conductor serving its RPC topics. */
import { startMetricsEndpoint } from '../metrics/endpoint';
import { bootstrap, openConfiguredDatabase, onShutdown, crash } from './bootstrap';
import { prepareSchema } from './schema';
import { startConductorService } from '../conductor/service';
import { serveConductorRpc } from '../rpc';

async function main(): Promise<void> {
  const { conf, embedded } = bootstrap(process.argv.slice(2));
  const db = await openConfiguredDatabase(conf);
  await prepareSchema(db, embedded);
  const service = await startConductorService({ conf, db });
  const rpc = await serveConductorRpc(conf, service.api);
  const metrics = await startMetricsEndpoint(conf, db, 'ironic-conductor', () => service.manager.ctx.pool);
  onShutdown([() => rpc.close(), async () => metrics?.close(), service.stop, db.close]);
}

main().catch(crash);
