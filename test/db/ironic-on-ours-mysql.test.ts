import { test } from 'node:test';
import { mysqlAvailable } from './harness';
import { ironicAvailable } from './ironic-python';
import { ironicOnOurDatabaseScenario } from './ironic-compat';

test('Python Ironic 21.4.4 works on a mysql database created by ironic-ts', async (t) => {
  if (!(await ironicAvailable())) return t.skip('python3-ironic not installed');
  if ('mysql' === 'mysql' && !(await mysqlAvailable())) return t.skip('MariaDB not reachable');
  await ironicOnOurDatabaseScenario('mysql');
});
