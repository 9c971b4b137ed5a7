/** `ironic-api`: the REST API alone; conductors are reached over RPC. */
import { startMetricsEndpoint } from '../metrics/endpoint';
import { bootstrap, openConfiguredDatabase, onShutdown, crash } from './bootstrap';
import { prepareSchema } from './schema';
import { startApiServer } from '../api/server';
import { maxMinorFor } from '../api/versions';
import { createConductorClient } from '../rpc';

async function main(): Promise<void> {
  const { conf, embedded } = bootstrap(process.argv.slice(2));
  const db = await openConfiguredDatabase(conf);
  await prepareSchema(db, embedded);
  const conductor = await createConductorClient({ conf, db });
  const api = await startApiServer({ conf, db, conductor, maxMinor: maxMinorFor(conf.optStr('DEFAULT', 'pin_release_version')) });
  const metrics = await startMetricsEndpoint(conf, db, 'ironic-api');
  onShutdown([api.close, async () => metrics?.close(), () => conductor.close(), db.close]);
}

main().catch(crash);
