/**
 * Debian's unmodified Nova ironic virt driver (nova.virt.ironic.driver.IronicDriver: Debian 12's Nova 26 on
 * python-ironicclient, or Debian 13's Nova 31 on openstacksdk, in the Debian 13 root) driven through
 * an instance's life against a fresh server: ironic-ts by default, the reference Ironic with
 * IRONIC_TS_COMPAT_TARGET=reference (to check the expectations themselves). The Python side
 * (nova_lifecycle.py) runs every step once and reports; each test below asserts one step.
 * NOVA_COMPAT_DIFF=1 also runs the whole script against the reference and compares every reported value.
 */
import { before, after, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { startTarget, Target } from '../support/target';
import { prepareNova, runLifecycle, type LifecycleResults, type NodeView, type NovaRelease, type StepResult } from './run-lifecycle';
import { normalizeResults } from './normalize-results';

interface ConfigDrive {
  volume_id: string;
  meta_data: { uuid: string; name: string; hostname: string; admin_pass?: string; files: { path: string }[] };
  network_data: { links: { vif_id: string; ethernet_mac_address: string; type: string }[] };
  injected: Record<string, string>;
}

interface Setup {
  node1: string;
  node2: string;
  image: string;
  vif: string;
}

interface Raised {
  raised: string | null;
  raised_message?: string;
}

const MAC1 = '52:54:00:aa:bb:01';

/** The lifecycle's tests, with one release of Nova. */
export function novaLifecycleSuite(release: NovaRelease): void {
  describe(`Nova ironic virt driver lifecycle (${release})`, { timeout: 600000 }, () => {
    let target: Target;
    let results: LifecycleResults;

    before(async () => {
      await prepareNova(release);
      target = await startTarget();
      results = await runLifecycle(target.url, path.join(target.dir, 'ironic.sqlite'), release);
    });

    after(async () => {
      await target?.stop();
    });

    /** The step's result, failing with the driver's traceback when it raised unexpectedly. */
    function step(name: string): StepResult {
      const r = results[name];
      assert.ok(r, `step ${name} did not run`);
      assert.ok(r.ok, `step ${name} raised ${r.error}: ${r.message}\n${r.trace ?? ''}`);
      return r;
    }
    const setup = (): Setup => results.setup as unknown as Setup;
    const nodeOf = (r: StepResult, key = 'node'): NodeView => r[key] as NodeView;
    const instanceUuid = (): string => step('spawn').instance_uuid as string;

    it('init_host and get_available_nodes list the available nodes', () => {
      step('init_host');
      const r = step('get_available_nodes');
      assert.deepEqual(r.nodes, [setup().node1, setup().node2].sort());
      assert.equal(r.node_is_available, true);
    });

    it('get_available_resource and update_provider_tree report the node', () => {
      const r = step('get_available_resource');
      const res = r.resource as Record<string, unknown>;
      assert.equal(res.uuid, setup().node1);
      assert.equal(res.hypervisor_type, 'ironic');
      assert.equal(res.resource_class, 'baremetal');
      assert.deepEqual(res.supported_instances, [['x86_64', 'baremetal', 'hvm']]);
      assert.deepEqual(res.stats, { cpu_arch: 'x86_64' });
      assert.deepEqual(r.inventory, {
        CUSTOM_BAREMETAL: { total: 1, reserved: 0, min_unit: 1, max_unit: 1, step_size: 1, allocation_ratio: 1.0 },
      });
    });

    it('prepare_for_spawn reserves the node and plugs the VIF', () => {
      const r = step('prepare_for_spawn');
      const node = nodeOf(r);
      assert.equal(node.instance_uuid, instanceUuid());
      assert.equal(node.provision_state, 'available');
      assert.equal(r.vifs_status, 200);
      // noop network interface: the attach is accepted and nothing is recorded.
      assert.deepEqual(r.vifs, { vifs: [] });
    });

    it('spawn deploys the node with instance_info and a config drive', () => {
      const r = step('spawn');
      const node = nodeOf(r);
      assert.equal(node.provision_state, 'active');
      assert.equal(node.target_provision_state, null);
      assert.equal(node.instance_uuid, instanceUuid());
      const info = node.instance_info;
      assert.equal(info.image_source, setup().image);
      assert.equal(info.display_name, 'nova-compat-vm');
      assert.equal(info.root_gb, '100');
      assert.equal(info.vcpus, '4');
      assert.equal(info.memory_mb, '8192');
      assert.equal(info.local_gb, '100');
      assert.equal(info.nova_host_id, 'nova-compat');
      assert.equal(info.capabilities, '{"boot_mode": "uefi"}');
      assert.equal(info.configdrive, '******', 'the API masks the configdrive');
      assert.equal(node.last_error, null);
    });

    it('the stored config drive is the ISO Nova built', () => {
      const drive = step('spawn').configdrive as ConfigDrive | null;
      assert.ok(drive, 'no configdrive stored in instance_info');
      assert.equal(drive.volume_id, 'config-2');
      const meta = drive.meta_data;
      assert.equal(meta.uuid, instanceUuid());
      assert.equal(meta.name, 'nova-compat-vm');
      assert.match(meta.hostname, /^nova-compat-vm/);
      assert.equal(meta.admin_pass, 'S3cr3t-admin');
      assert.deepEqual(meta.files.map((f) => f.path), ['/etc/compat.conf', '/root/.ssh/extra']);
      assert.deepEqual(drive.injected, { '/etc/compat.conf': 'hello from nova\n', '/root/.ssh/extra': 'second file' });
      assert.equal(drive.network_data.links[0].vif_id, setup().vif);
      assert.equal(drive.network_data.links[0].ethernet_mac_address, MAC1);
    });

    it('list_instances, list_instance_uuids and instance_exists see the instance', () => {
      const r = step('list_instances');
      assert.deepEqual(r.uuids, [instanceUuid()]);
      assert.equal((r.names as string[]).length, 1);
      assert.equal(r.exists, true);
    });

    it('get_info maps the power state (fake deploy leaves the node powered off: SHUTDOWN=4)', () => {
      const r = step('get_info');
      assert.equal(r.state, 4);
      assert.equal(r.state_uncached, 4);
    });

    for (const name of ['reboot_soft', 'reboot_hard']) {
      it(`${name} leaves the node powered on`, () => {
        const node = nodeOf(step(name));
        assert.equal(node.power_state, 'power on');
        assert.equal(node.target_power_state, null);
        assert.equal(node.provision_state, 'active');
      });
    }

    it('power_off, power_on and soft power off', () => {
      const off = step('power_off');
      assert.equal(nodeOf(off).power_state, 'power off');
      assert.equal(off.state, 4);
      const on = step('power_on');
      assert.equal(nodeOf(on).power_state, 'power on');
      assert.equal(on.state, 1);
      assert.equal(nodeOf(step('power_off_soft')).power_state, 'power off');
    });

    it('rebuild redeploys with the new image and a new config drive', () => {
      const r = step('rebuild');
      const node = nodeOf(r);
      assert.equal(node.provision_state, 'active');
      assert.equal(node.instance_uuid, instanceUuid());
      assert.equal(node.instance_info.image_source, r.image);
      assert.equal(node.instance_info.preserve_ephemeral, 'False');
      assert.equal(r.task_state, 'rebuild_spawning');
      const drive = r.configdrive as ConfigDrive | null;
      assert.ok(drive, 'no configdrive stored after rebuild');
      assert.equal(drive.meta_data.admin_pass, 'N3w-admin');
    });

    it('rescue and unrescue', () => {
      const rescued = nodeOf(step('rescue'));
      assert.equal(rescued.provision_state, 'rescue');
      assert.equal(rescued.instance_info.rescue_password, '******');
      const back = nodeOf(step('unrescue'));
      assert.equal(back.provision_state, 'active');
      assert.equal(back.instance_uuid, instanceUuid());
    });

    it('serial console: unavailable while disabled; the fake console gives Nova no console type', () => {
      const r = step('console');
      assert.deepEqual(r.disabled, { raised: 'ConsoleTypeUnavailable', raised_message: 'Unavailable console type serial.' });
      assert.equal(r.enable_status, 202);
      // Ironic's fake console returns {} as console_info; Nova 26 indexes console_info["type"].
      assert.equal((r.enabled as Raised).raised, 'KeyError');
      assert.deepEqual(r.api_console, { console_enabled: true, console_info: {} });
    });

    it('trigger_crash_dump: the fake management has no NMI; get_volume_connector reads the node\'s connectors', () => {
      const r = step('crash_dump_and_volume_connector');
      const refusal = 'Driver fake-hardware does not support inject_nmi (disabled or not implemented).';
      // Nova 26 relays python-ironicclient's exception, Nova 31 openstacksdk's, each in its own words.
      assert.deepEqual(r.crash_dump, release === 'nova-26'
        ? { raised: 'BadRequest', raised_message: `${refusal} (HTTP 400)` }
        : {
          raised: 'BadRequestException',
          raised_message: `Failed to inject NMI to node ${setup().node1}: Client Error for url: ${target.url.replace(/\/$/, '')}/v1/nodes/${setup().node1}/management/inject_nmi, ${refusal}`,
        });
      assert.deepEqual(r.volume_connector, {
        ip: '192.0.2.10', host: '192.0.2.10', initiator: 'iqn.2026-12.org.example:compat',
        platform: 'x86_64', os_type: 'baremetal', multipath: false,
      });
    });

    it('attach_interface and detach_interface on the active node', () => {
      const r = step('attach_detach_interface');
      assert.equal(r.vifs_status, 200);
      assert.deepEqual(r.vifs, { vifs: [] });
      assert.equal(nodeOf(r).provision_state, 'active');
    });

    it('a second instance on the same node: refused locally, 409 from the API', () => {
      const r = step('second_spawn_same_node');
      assert.equal((r.prepare as Raised).raised, 'ComputeResourcesUnavailable');
      const reserve = r.reserve as Raised;
      assert.equal(reserve.raised, 'InstanceDeployFailure');
      assert.match(reserve.raised_message ?? '', /^Failed to reserve node /);
      assert.equal(r.http_status, 409);
      assert.equal(r.http_fault, `Node ${setup().node1} is associated with instance ${instanceUuid()}.`);
      assert.equal(nodeOf(r).instance_uuid, instanceUuid());
    });

    it('destroy tears the node down to available and clears the instance', () => {
      const r = step('destroy');
      const node = nodeOf(r);
      assert.equal(node.provision_state, 'available');
      assert.equal(node.target_provision_state, null);
      assert.equal(node.instance_uuid, null);
      assert.deepEqual(node.instance_info, {});
      assert.equal(r.configdrive_stored, false);
      assert.equal(r.exists, false);
    });

    it('a deploy Ironic refuses is reported by Nova with Ironic\'s reason, and the node is released', () => {
      const r = step('failed_deploy');
      assert.notEqual(nodeOf(r, 'reserved').instance_uuid, null);
      assert.equal(r.raised, 'ValidationError');
      const message = r.raised_message as string;
      if (release === 'nova-26') {
        assert.match(message, new RegExp(`^Ironic node: ${setup().node2} failed to validate\\. \\(deploy: \\{'result': False`));
        assert.ok(
          message.includes(
            'Matching deploy templates: CUSTOM_BROKEN_TEMPLATE. Errors: deploy step deploy on interface deploy is a core step and cannot be overridden by user steps. It may be disabled by setting the priority to 0',
          ),
          message,
        );
        assert.ok(message.endsWith("power: {'result': True}, storage: {'result': True})"), message);
      } else {
        // Nova 31 formats openstacksdk's ValidationResult objects with their repr, so Ironic's reason is not in it.
        assert.match(message, new RegExp(`^Ironic node: ${setup().node2} failed to validate\\. \\(deploy: <openstack\\.baremetal\\.v1\\.node\\.ValidationResult object`));
      }
      const node = nodeOf(r);
      assert.equal(node.provision_state, 'available');
      assert.equal(node.instance_uuid, null);
      assert.deepEqual(node.instance_info, {});
      assert.equal(node.last_error, null);
    });

    it('a deployment that fails in the conductor: deploy failed + last_error, InstanceDeployFailure, destroy recovers', () => {
      const r = step('failed_deploy_async');
      assert.equal(r.raised, 'InstanceDeployFailure');
      assert.match(r.raised_message as string, /^Failed to provision instance [0-9a-f-]{36}: No deploy steps returned by the driver$/);
      const failed = nodeOf(r);
      assert.equal(failed.provision_state, 'deploy failed');
      assert.equal(failed.target_provision_state, 'active');
      assert.equal(failed.last_error, 'No deploy steps returned by the driver');
      assert.notEqual(failed.instance_uuid, null);
      assert.deepEqual(failed.instance_info.traits, ['CUSTOM_NO_DEPLOY_STEP']);
      const after = nodeOf(r, 'after_destroy');
      assert.equal(after.provision_state, 'available');
      assert.equal(after.instance_uuid, null);
      assert.deepEqual(after.instance_info, {});
      assert.equal(after.last_error, null);
    });
  });

  describe(`Nova ironic virt driver (${release}): ironic-ts and the reference report the same`, {
    skip: process.env.NOVA_COMPAT_DIFF !== '1', timeout: 600000,
  }, () => {
    it('every step result, node view and config drive match', async () => {
      const runs: LifecycleResults[] = [];
      for (const kind of ['reference', 'ironic-ts'] as const) {
        const target = await startTarget({ kind });
        try {
          runs.push(await runLifecycle(target.url, path.join(target.dir, 'ironic.sqlite'), release));
        } finally {
          await target.stop();
        }
      }
      assert.deepEqual(normalizeResults(runs[1]), normalizeResults(runs[0]));
    });
  });
}
