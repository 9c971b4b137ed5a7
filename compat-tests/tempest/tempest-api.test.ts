/**
 * ironic-tempest-plugin 2.13's API tests (Debian 13's, unmodified, run in the Debian 13 root with
 * tempest 43) against ironic-ts behind a real Keystone, with scope enforcement on as the plugin
 * defaults: every admin API module must run and pass, apart from the tests it skips by itself.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensureDebian13, inDebian13 } from '../support/debian13-root';
import { ironicKeystoneConf, ironicServiceUser, startKeystone, type Keystone } from '../support/keystone';
import { startTarget, type Target } from '../support/target';
import { IRONIC_HARDWARE_CONF, tempestConf } from './tempest-conf';
import { failureTexts, outcomes, type TestOutcome } from './unittest-report';

const PACKAGE = 'ironic_tempest_plugin.tests.api.admin';
const MODULES = ['test_allocations', 'test_api_discovery', 'test_chassis', 'test_conductor', 'test_deploy_templates',
  'test_drivers', 'test_microversion_enforcement', 'test_nodes', 'test_nodestates', 'test_portgroups', 'test_ports',
  'test_ports_negative', 'test_runbooks', 'test_shards', 'test_volume_connector', 'test_volume_target'];

function run(file: string, args: string[], env: Record<string, string>, cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { env: { PATH: '/usr/bin:/bin:/usr/sbin:/sbin', LANG: 'C.UTF-8', ...env }, cwd, timeout: 3_000_000, maxBuffer: 1 << 28 },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, output: `${stdout}${stderr}` }));
  });
}

describe('ironic-tempest-plugin API tests', { timeout: 3_600_000 }, () => {
  let ks: Keystone | undefined;
  let ironic: Target | undefined;
  let work = '';
  let results: TestOutcome[] = [];
  let failures = new Map<string, string>();

  before(async () => {
    await ensureDebian13(['python3-tempest', 'ironic-tempest-plugin']);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'ironic-tempest-'));
    ks = await startKeystone();
    await ironicServiceUser(ks);
    ironic = await startTarget({ extraConf: `${IRONIC_HARDWARE_CONF}${ironicKeystoneConf(ks.url)}` });
    await ks.registerService('baremetal', 'ironic', ironic.url);
    fs.writeFileSync(path.join(work, 'tempest.conf'), tempestConf({ work, keystoneUrl: ks.url, adminPassword: ks.adminPassword }));
    const tests = MODULES.map((m) => `${PACKAGE}.${m}`);
    const [file, args] = inDebian13([work], '/usr/bin/python3', ['-W', 'ignore', '-m', 'unittest', '-v', ...tests]);
    const { output } = await run(file, args, { HOME: work, TEMPEST_CONFIG_DIR: work, TEMPEST_CONFIG: 'tempest.conf' }, work);
    fs.writeFileSync(path.join(work, 'unittest.out'), output);
    results = outcomes(output);
    failures = failureTexts(output);
  });

  after(async () => {
    await ironic?.stop();
    await ks?.stop();
    if (work !== '' && process.env.IRONIC_TS_KEEP_TEMPEST === undefined) fs.rmSync(work, { recursive: true, force: true });
  });

  for (const module of MODULES) {
    it(`${module} passes`, () => {
      const mine = results.filter((r) => r.id.startsWith(`${PACKAGE}.${module}.`));
      assert.ok(mine.some((r) => r.outcome === 'ok'), `no test of ${module} passed (${mine.length} reported)`);
      const failed = mine.filter((r) => r.outcome === 'FAIL' || r.outcome === 'ERROR' || r.outcome === 'unexpected success');
      assert.deepEqual(failed.map((r) => `${r.outcome} ${r.id}\n${failures.get(r.id) ?? ''}`), []);
    });
  }
});
