import { test } from 'node:test';
import { ironicAvailable } from './ironic-python';
import { ironicOnOurDatabaseScenario } from './ironic-compat';

test('Python Ironic 21.4.4 works on a SQLite database created by ironic-ts', async (t) => {
  if (!(await ironicAvailable())) return t.skip('python3-ironic not installed');
  await ironicOnOurDatabaseScenario('sqlite');
});
