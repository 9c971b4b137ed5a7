/**
 * The shim's config drive against Nova's for the same instance. Debian's unmodified Nova
 * (IronicDriver._generate_configdrive: InstanceMetadata + ConfigDriveBuilder, network_data.json
 * corrected with the node's ports from ironic-ts) and the shim build a drive for one instance
 * (same uuid, name, hostname, key pair, metadata, files, admin password, user data, network_info)
 * on one node whose VIFs sit on a port and on a bonded portgroup. Both ISOs are unpacked with
 * isoinfo and compared: same file list, same JSON keys in every JSON file, equal values except the
 * few Nova draws at random or from its own database. The instance_info patch Nova's patcher builds
 * for the same instance and flavor is compared with the shim's too.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { freePort, startIronicTs, Target } from '../support/target';
import { IronicClient, IronicNode } from '../../src/compute/client';
import { ComputeDriver } from '../../src/compute/driver';
import { deployPatch } from '../../src/compute/patcher';
import type { NetworkInfo, SpawnRequest } from '../../src/compute/types';

const SCRIPT = path.resolve(__dirname, '..', '..', '..', 'compat-tests', 'compute', 'nova_configdrive.py');
const INSTANCE = '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b';
const VIF_PORT = '0a0a0a0a-1111-4222-8333-000000000001';
const VIF_BOND = '0a0a0a0a-1111-4222-8333-000000000002';
const IMAGE = '9e8d7c6b-5a49-4382-9170-6f5e4d3c2b1a';
const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIConfigDriveCompare compare@test';

/** Values Nova draws at random or numbers from its database: compared by presence only. */
const UNSTABLE: Record<string, string[]> = {
  'meta_data.json': ['random_seed'],
  'meta-data.json': ['instance-id', 'reservation-id', 'ami-id'],
};

const NETWORK_INFO: NetworkInfo = [
  {
    id: VIF_PORT, address: 'fa:16:3e:11:11:11', type: 'other',
    network: {
      id: 'net-lab', label: 'lab', mtu: 1500,
      subnets: [
        { cidr: '192.0.2.0/24', ips: ['192.0.2.10'], gateway: '192.0.2.1', dns: ['192.0.2.2', '192.0.2.3'], routes: [{ cidr: '198.51.100.0/24', gateway: '192.0.2.254' }] },
        { cidr: '2001:db8:1::/64', ips: ['2001:db8:1::10'], gateway: '2001:db8:1::1', dns: ['2001:db8:1::53'] },
      ],
    },
  },
  {
    id: VIF_BOND, address: 'fa:16:3e:22:22:22', type: 'ovs',
    network: { id: 'net-storage', mtu: 9000, subnets: [{ cidr: '203.0.113.0/25', ips: ['203.0.113.20'], dns: ['192.0.2.2'] }] },
  },
];

interface Drive {
  files: string[];
  read(file: string): Buffer;
}

function unpack(encoded: string, dir: string): Drive {
  const iso = path.join(dir, 'drive.iso');
  fs.writeFileSync(iso, zlib.gunzipSync(Buffer.from(encoded, 'base64')));
  const listing = execFileSync('isoinfo', ['-i', iso, '-R', '-f'], { encoding: 'utf8' });
  const all = listing.split('\n').filter(Boolean).sort();
  // Directories are the entries other entries sit under.
  const files = all.filter((f) => !all.some((g) => g.startsWith(`${f}/`)));
  return { files, read: (f) => execFileSync('isoinfo', ['-i', iso, '-R', '-x', f], { maxBuffer: 16 * 1024 * 1024 }) };
}

interface NovaOutput {
  configdrive: string;
  deploy_patch: unknown[];
}

function runNova(url: string, work: string, spec: Record<string, unknown>): Promise<NovaOutput> {
  fs.mkdirSync(path.join(work, 'nova'), { recursive: true });
  return new Promise((resolve, reject) => {
    execFile('/usr/bin/python3', [SCRIPT], {
      env: {
        PATH: '/usr/bin:/bin:/usr/sbin:/sbin', HOME: work, LANG: 'C.UTF-8', PYTHONDONTWRITEBYTECODE: '1',
        IRONIC_URL: url, NOVA_WORKDIR: path.join(work, 'nova'), INSTANCE_SPEC: JSON.stringify(spec),
      },
      timeout: 240000, maxBuffer: 64 * 1024 * 1024,
    }, (err, stdout, stderr) => {
      const last = String(stdout).trim().split('\n').pop() ?? '';
      if (err || !last.startsWith('{')) reject(new Error(`nova_configdrive.py failed: ${err?.message}\n${String(stderr).slice(-4000)}`));
      else resolve(JSON.parse(last) as NovaOutput);
    });
  });
}

/** Keys of every object in the document, as sorted dotted paths (array items by index). */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => keyPaths(v, `${prefix}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => [`${prefix}.${k}`, ...keyPaths(v, `${prefix}.${k}`)]);
  }
  return [];
}

function stable(file: string, doc: Record<string, unknown>): Record<string, unknown> {
  const out = { ...doc };
  for (const key of UNSTABLE[path.basename(file)] ?? []) if (key in out) out[key] = '<unstable>';
  return out;
}

describe('the shim builds the config drive Nova builds', { timeout: 300000 }, () => {
  let target: Target;
  let work: string;
  let node: IronicNode;
  let nova: Drive;
  let shim: Drive;
  let novaPatch: unknown[];
  let req: SpawnRequest;

  before(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'compute-configdrive-'));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ironic-compute-cd-'));
    target = await startIronicTs(dir, await freePort(), 'enabled_network_interfaces = noop,flat');
    const client = new IronicClient({ url: target.url });
    node = await client.request<IronicNode>('POST', '/v1/nodes', {
      driver: 'fake-hardware', name: 'cd-node', network_interface: 'flat', resource_class: 'baremetal',
      properties: { cpus: 4, memory_mb: 8192, local_gb: 100, cpu_arch: 'x86_64' },
    });
    // VIF_PORT goes to the lone port; VIF_BOND to a portgroup of two ports with bonding options.
    await client.request('POST', '/v1/ports', { node_uuid: node.uuid, address: '52:54:00:cd:00:01' });
    const pg = await client.request<{ uuid: string }>('POST', '/v1/portgroups', {
      node_uuid: node.uuid, address: '52:54:00:cd:00:10', mode: '802.3ad', properties: { miimon: '100', bond_xmit_hash_policy: 'layer3+4' },
    });
    for (const mac of ['52:54:00:cd:00:11', '52:54:00:cd:00:12']) {
      await client.request('POST', '/v1/ports', { node_uuid: node.uuid, address: mac, portgroup_uuid: pg.uuid });
    }
    await client.attachVif(node.uuid, VIF_BOND);
    await client.attachVif(node.uuid, VIF_PORT);

    const files = [{ path: '/etc/compare.conf', contents: 'shim and nova\n' }, { path: '/root/notes.txt', contents: 'second' }];
    req = {
      node: node.uuid, instanceUuid: INSTANCE, name: 'compare-vm', hostname: 'compare-vm', image: IMAGE, host: 'nova-compat',
      flavor: { name: 'bm.small', vcpus: 4, memoryMb: 8192, rootGb: 100, swapMb: 512, ephemeralGb: 10, capabilities: { boot_mode: 'uefi', disk_label: 'gpt' }, traits: ['CUSTOM_GOLD'] },
      keyPair: { name: 'lab-key', publicKey: KEY },
      userData: '#cloud-config\nruncmd: [echo hi]\n', adminPass: 'Adm1n-pass', files, networkInfo: NETWORK_INFO,
      metadata: { role: 'compare', tier: 'gold' }, projectId: 'project-compare',
    };
    const novaOut = await runNova(target.url, work, {
      image: IMAGE,
      flavor: {
        name: 'bm.small', memory_mb: 8192, vcpus: 4, root_gb: 100, swap: 512, ephemeral_gb: 10,
        extra_specs: { 'capabilities:boot_mode': 'uefi', 'capabilities:disk_label': 'gpt', 'trait:CUSTOM_GOLD': 'required', 'trait1:CUSTOM_OPTIONAL': 'forbidden' },
      },
      uuid: INSTANCE, name: req.name, hostname: req.hostname, key_name: 'lab-key', public_key: KEY, user_data: req.userData,
      admin_pass: req.adminPass, files, metadata: req.metadata, project_id: req.projectId, node: node.uuid,
      network_info: NETWORK_INFO,
    });
    novaPatch = novaOut.deploy_patch;
    const shimDrive = await new ComputeDriver(client).configDrive(node.uuid, req);
    fs.mkdirSync(path.join(work, 'nova-iso'));
    fs.mkdirSync(path.join(work, 'shim-iso'));
    nova = unpack(novaOut.configdrive, path.join(work, 'nova-iso'));
    shim = unpack(shimDrive, path.join(work, 'shim-iso'));
  });

  after(async () => {
    await target?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it("sends the instance_info patch Nova's patcher builds, op for op", () => {
    assert.deepEqual(deployPatch(node, req), novaPatch);
  });

  it('has the same files', () => {
    assert.ok(nova.files.includes('/openstack/latest/network_data.json'), nova.files.join('\n'));
    assert.deepEqual(shim.files, nova.files);
  });

  it('has the same JSON keys in every JSON file, and equal stable values', () => {
    const jsonFiles = nova.files.filter((f) => f.endsWith('.json'));
    assert.ok(jsonFiles.length >= 30, `only ${jsonFiles.length} JSON files`);
    for (const f of jsonFiles) {
      const a = JSON.parse(nova.read(f).toString('utf8')) as Record<string, unknown>;
      const b = JSON.parse(shim.read(f).toString('utf8')) as Record<string, unknown>;
      assert.deepEqual(keyPaths(b), keyPaths(a), `keys of ${f}`);
      assert.deepEqual(stable(f, b), stable(f, a), `values of ${f}`);
    }
  });

  it('carries the same user data and injected files', () => {
    for (const f of nova.files.filter((x) => !x.endsWith('.json'))) {
      assert.equal(shim.read(f).toString('utf8'), nova.read(f).toString('utf8'), f);
    }
    assert.equal(nova.read('/openstack/content/0001').toString('utf8'), 'second');
  });

  it('writes network_data.json from the node: the port MAC, and a bond over the portgroup', () => {
    const doc = JSON.parse(shim.read('/openstack/latest/network_data.json').toString('utf8')) as { links: Array<Record<string, unknown>> };
    const byVif = Object.fromEntries(doc.links.filter((l) => l.vif_id).map((l) => [l.vif_id, l]));
    assert.equal(byVif[VIF_PORT].ethernet_mac_address, '52:54:00:cd:00:01');
    assert.equal(byVif[VIF_BOND].type, 'bond');
    assert.equal(byVif[VIF_BOND].bond_mode, '802.3ad');
    assert.equal(byVif[VIF_BOND].bond_miimon, '100');
    assert.equal((byVif[VIF_BOND].bond_links as string[]).length, 2);
  });
});
