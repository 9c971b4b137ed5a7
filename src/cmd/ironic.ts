/** `ironic`: API and conductor in one process (Ironic's single-process mode). */
import { startMetricsEndpoint } from '../metrics/endpoint';
import { bootstrap, openConfiguredDatabase, onShutdown, crash } from './bootstrap';
import { prepareSchema } from './schema';
import { startApiServer } from '../api/server';
import { maxMinorFor } from '../api/versions';
import { startConductorService } from '../conductor/service';
import { createConductorClient, serveConductorRpc } from '../rpc';

async function main(): Promise<void> {
  const { conf, embedded } = bootstrap(process.argv.slice(2));
  const db = await openConfiguredDatabase(conf);
  await prepareSchema(db, embedded);
  const service = await startConductorService({ conf, db });
  // As Ironic's single process: with oslo or json-rpc the conductor also serves its RPC topic, so
  // other API processes (and, over oslo, this one) reach it; with none it is only called in-process.
  const rpc = await serveConductorRpc(conf, service.api);
  const conductor = await createConductorClient({ conf, db, local: service.api });
  const api = await startApiServer({ conf, db, conductor, maxMinor: maxMinorFor(conf.optStr('DEFAULT', 'pin_release_version')) });
  const metrics = await startMetricsEndpoint(conf, db, 'ironic', () => service.manager.ctx.pool);
  onShutdown([api.close, async () => metrics?.close(), () => conductor.close(), () => rpc.close(), service.stop, db.close]);
}

main().catch(crash);
