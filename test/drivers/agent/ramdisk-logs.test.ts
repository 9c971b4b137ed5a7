import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ramdiskLogsFileName } from '../../../src/drivers/agent/ramdisk-logs';
import type { NodeRecord } from '../../../src/db/models';
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
          const collected = agent.runner.commands.filter((c) => c.command_name === 'collect_system_logs');
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
