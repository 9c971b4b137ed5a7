import { test } from 'node:test';
import { ironicAvailable } from './ironic-python';
import { adoptionScenario } from './ironic-compat';

test('SQLite database made by Python Ironic 21.4.4 is adopted losslessly and stays compatible', async (t) => {
  if (!(await ironicAvailable())) return t.skip('python3-ironic not installed');
  await adoptionScenario('sqlite');
});
