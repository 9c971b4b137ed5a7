import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ramdiskLogsFileName } from '../../../src/drivers/agent/ramdisk-logs';
import type { NodeRecord } from '../../../src/db/models';
import type { AgentEmulator } from '../../../src/emulators/agent/server';
import { UnknownCommand } from '../../../src/emulators/agent/commands';
import {
  availableNode, buildExt4Image, DirectLab, emulatorFor, run, sha256File, startDirectLab, startStaticServer, V, waitForState,
} from '../deploy/agent-support';

it('names the logs <uuid>_<name>_<instance>_<label>_<UTC time>.tar.gz, leaving out what the node lacks', () => {
  const at = new Date(Date.UTC(2026, 11, 5, 7, 8, 9));
  const node = { uuid: 'u-1', name: 'n-1', instance_uuid: 'i-1' } as NodeRecord;
  assert.equal(ramdiskLogsFileName(node, 'cleaning', at), 'u-1_n-1_i-1_cleaning_2026-12-05-07-08-09.tar.gz');
  assert.equal(ramdiskLogsFileName({ ...node, name: null, instance_uuid: null }, null, at), 'u-1_2026-12-05-07-08-09.tar.gz');
});

for (const collect of ['always', 'never'] as const) {
  describe(`[agent]deploy_logs_collect=${collect}`, () => {
    let dir: string;
    let lab: DirectLab;
    let image: string;
    let logsDir: string;

    before(async () => {
      dir = await fsp.mkdtemp(path.join(os.tmpdir(), `ramdisk-logs-${collect}-`));
      image = await buildExt4Image(dir);
      logsDir = path.join(dir, 'logs', 'deploy');
      lab = await startDirectLab(dir, { agent: { deploy_logs_collect: collect, deploy_logs_local_path: logsDir } });
    });
    after(async () => {
      await lab.stop();
      await fsp.rm(dir, { recursive: true, force: true });
    });

    it(collect === 'always' ? 'keeps the logs of a successful deploy too (tear_down_agent)' : 'keeps no logs even of a failed deploy',
      async () => {
        const mac = '52:54:00:ee:00:01';
        // 'never': an http image with a wrong checksum, which the agent itself refuses.
        const origin = await startStaticServer(dir);
        const source = collect === 'always' ? `file://${image}` : `${origin.url}/root.img`;
        const sha = collect === 'always' ? await sha256File(image) : 'e'.repeat(64);
        const uuid = await availableNode(lab.s, `logs-${collect}`, mac, {
          image_source: source, image_os_hash_algo: 'sha256', image_os_hash_value: sha,
        });
        const agent = await emulatorFor(lab, mac, `logs-${collect}`);
        try {
          const r = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: { target: 'active' } });
          assert.equal(r.status, 202, r.text);
          const node = await waitForState(lab.s, uuid, ['active', 'deploy failed']);
          const collected = agent.runner.history.filter((c) => c.command_name === 'collect_system_logs');
          if (collect === 'never') {
            assert.equal(node.provision_state, 'deploy failed');
            assert.match(node.last_error, /write_image failed/);
            assert.equal(collected.length, 0);
            await assert.rejects(fsp.readdir(logsDir), 'the directory is not even made');
            return;
          }
          assert.equal(node.provision_state, 'active', node.last_error);
          assert.equal(collected.length, 1);
          const files = await fsp.readdir(logsDir);
          assert.equal(files.length, 1);
          assert.ok(files[0].startsWith(`${uuid}_logs-always_`), files[0]);
          assert.equal((await fsp.stat(path.join(logsDir, files[0]))).mode & 0o777, 0o600);
          const { stdout } = await run('tar', ['-xzOf', path.join(logsDir, files[0]), 'journal']);
          assert.match(stdout, /^execute_deploy_step SUCCEEDED$/m);
        } finally {
          await agent.stop();
          await origin.stop();
        }
      });
  });
}

/**
 * The conductor's own collection (conductor/cleaning.py and servicing.py of 29.0.5): at the end of a
 * cleaning when `always`, and when a step raises in the conductor (not `never`), labelled `cleaning`
 * or `service`. [agent]deploy_logs_collect is mutable: each test sets what it checks.
 */
describe('ramdisk logs of cleaning and servicing', () => {
  let dir: string;
  let lab: DirectLab;
  let logsDir: string;

  before(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'ramdisk-logs-steps-'));
    logsDir = path.join(dir, 'logs');
    lab = await startDirectLab(dir, { agent: { deploy_logs_local_path: logsDir } });
  });
  after(async () => {
    await lab.stop();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  const logsOf = async (prefix: string) => (await fsp.readdir(logsDir).catch(() => [] as string[])).filter((f) => f.startsWith(prefix));
  const collections = (agent: AgentEmulator) => agent.runner.history.filter((c) => c.command_name === 'collect_system_logs');
  const journal = async (file: string) => (await run('tar', ['-xzOf', path.join(logsDir, file), 'journal'])).stdout;

  /** A direct-deploy node with a port, in manageable (or active, for servicing, with fast track as its ramdisk needs). */
  async function node(name: string, mac: string, active = false): Promise<string> {
    const created = await lab.s.request('POST', '/v1/nodes', { version: V, body: {
      name, driver: 'fake-hardware', deploy_interface: 'direct', management_interface: 'noop',
      driver_info: { deploy_kernel: 'http://example.invalid/k', deploy_ramdisk: 'http://example.invalid/r', fast_track: active },
    } });
    assert.equal(created.status, 201, created.text);
    const uuid = created.json.uuid as string;
    const port = await lab.s.request('POST', '/v1/ports', { version: V, body: { address: mac, node_uuid: uuid } });
    assert.equal(port.status, 201, port.text);
    await lab.s.db.knex('nodes').where({ uuid }).update(active
      ? { provision_state: 'active', power_state: 'power on' } : { provision_state: 'manageable' });
    return uuid;
  }

  async function provision(uuid: string, body: Record<string, unknown>, wanted: string[]): Promise<Record<string, any>> {
    const r = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: '1.96', body });
    assert.equal(r.status, 202, r.text);
    return waitForState(lab.s, uuid, wanted);
  }

  // A RAID step the agent lists for servicing; the node's no-raid interface has no such step, so it raises in the conductor.
  const RAID_SERVICE_STEP = { interface: 'raid', step: 'apply_configuration', args: { raid_config: {} } };

  /** The agent refuses execute_clean_step outright (HTTP 400): the step raises in the conductor. */
  function refuseCleanSteps(agent: AgentEmulator): void {
    const execute = agent.runner.execute.bind(agent.runner);
    agent.runner.execute = async (name, params, wait) => {
      if (name === 'clean.execute_clean_step') throw new UnknownCommand('Unknown command: clean.execute_clean_step');
      return execute(name, params, wait);
    };
  }
  const METADATA_STEP = { interface: 'deploy', step: 'erase_devices_metadata' };

  it('always: a successful cleaning keeps the ramdisk logs labelled cleaning, taken before the ramdisk goes', async () => {
    lab.s.conf.set('agent', 'deploy_logs_collect', 'always');
    const mac = '52:54:00:ee:01:01';
    const uuid = await node('clean-ok', mac);
    await fsp.writeFile(path.join(dir, 'clean-ok.disk'), Buffer.alloc(2 * 1024 * 1024, 0xab));
    const agent = await emulatorFor(lab, mac, 'clean-ok');
    try {
      const done = await provision(uuid, { target: 'clean', clean_steps: [METADATA_STEP] }, ['manageable', 'clean failed']);
      assert.equal(done.provision_state, 'manageable', done.last_error);
      assert.equal(collections(agent).length, 1);
      const files = await logsOf(`${uuid}_clean-ok_cleaning_`);
      assert.equal(files.length, 1, JSON.stringify(await logsOf(uuid)));
      assert.match(files[0], /_cleaning_\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d\.tar\.gz$/);
      assert.match(await journal(files[0]), /^execute_clean_step SUCCEEDED$/m);
    } finally {
      await agent.stop();
    }
  });

  it('on_failure: a successful cleaning keeps none; a step raising in the conductor keeps them labelled cleaning', async () => {
    lab.s.conf.set('agent', 'deploy_logs_collect', 'on_failure');
    const mac = '52:54:00:ee:01:02';
    const uuid = await node('clean-bad', mac);
    await fsp.writeFile(path.join(dir, 'clean-bad.disk'), Buffer.alloc(2 * 1024 * 1024, 0xab));
    const agent = await emulatorFor(lab, mac, 'clean-bad');
    try {
      const ok = await provision(uuid, { target: 'clean', clean_steps: [METADATA_STEP] }, ['manageable', 'clean failed']);
      assert.equal(ok.provision_state, 'manageable', ok.last_error);
      assert.equal(collections(agent).length, 0);
      assert.deepEqual(await logsOf(uuid), []);

      refuseCleanSteps(agent);
      const failed = await provision(uuid, { target: 'clean', clean_steps: [METADATA_STEP] }, ['manageable', 'clean failed']);
      assert.equal(failed.provision_state, 'clean failed');
      assert.match(failed.last_error, /failed step .*erase_devices_metadata.*Unknown command: clean\.execute_clean_step/);
      assert.equal(collections(agent).length, 1);
      assert.equal((await logsOf(`${uuid}_clean-bad_cleaning_`)).length, 1, JSON.stringify(await logsOf(uuid)));
    } finally {
      await agent.stop();
    }
  });

  it('never: a step raising in the conductor keeps nothing and asks the agent for nothing', async () => {
    lab.s.conf.set('agent', 'deploy_logs_collect', 'never');
    const mac = '52:54:00:ee:01:03';
    const uuid = await node('clean-never', mac);
    const agent = await emulatorFor(lab, mac, 'clean-never');
    refuseCleanSteps(agent);
    try {
      const failed = await provision(uuid, { target: 'clean', clean_steps: [METADATA_STEP] }, ['manageable', 'clean failed']);
      assert.equal(failed.provision_state, 'clean failed');
      assert.match(failed.last_error, /failed step .*erase_devices_metadata.*Unknown command: clean\.execute_clean_step/);
      assert.equal(collections(agent).length, 0);
      assert.deepEqual(await logsOf(uuid), []);
    } finally {
      await agent.stop();
    }
  });

  it('always: a failed service step keeps the logs labelled service; a successful servicing keeps none, as 29.0.5 ' +
    'wipes the agent URL before collecting', async () => {
    lab.s.conf.set('agent', 'deploy_logs_collect', 'always');
    const mac = '52:54:00:ee:01:04';
    const uuid = await node('svc', mac, true);
    const agent = await emulatorFor(lab, mac, 'svc');
    try {
      const ok = await provision(uuid, { target: 'service', service_steps: [{ interface: 'deploy', step: 'burnin_cpu', args: {} }] },
        ['active', 'service failed']);
      assert.equal(ok.provision_state, 'active', ok.last_error);
      assert.equal(collections(agent).length, 0, 'no agent URL left to ask');
      assert.deepEqual(await logsOf(uuid), []);

      const failed = await provision(uuid, { target: 'service', service_steps: [RAID_SERVICE_STEP] }, ['active', 'service failed']);
      assert.equal(failed.provision_state, 'service failed');
      assert.match(failed.last_error, /failed step .*apply_configuration.*: Interface raid has no step/);
      assert.equal(collections(agent).length, 1);
      const files = await logsOf(`${uuid}_svc_service_`);
      assert.equal(files.length, 1, JSON.stringify(await logsOf(uuid)));
    } finally {
      await agent.stop();
    }
  });
});
