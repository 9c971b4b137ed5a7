/**
 * Virtual media through the conductor (get/attach/detach_virtual_media) on a redfish node, against
 * the Redfish emulator over a real socket: the image is fetched from a real HTTP server, published
 * under [deploy]http_root/redfish and inserted by its [deploy]http_url address.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as historyRepo from '../../../src/db/repositories/node-history';
import * as nodesRepo from '../../../src/db/repositories/nodes';
import { Lab, redfishNode, startLab } from './support';

let lab: Lab;
let images: http.Server;
let imageBase: string;
let httpRoot: string;
const ISO = Buffer.from('not really an ISO, but bytes all the same');

before(async () => {
  lab = await startLab({ systems: ['1'] });
  httpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'vmedia-http-'));
  lab.svc.manager.ctx.conf.set('deploy', 'http_root', httpRoot);
  lab.svc.manager.ctx.conf.set('deploy', 'http_url', 'http://conductor.example:8080/');
  images = http.createServer((req, res) => {
    if (req.url === '/boot.iso') res.end(ISO);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  imageBase = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
});

after(async () => {
  await lab.stop();
  await new Promise((resolve) => images.close(resolve));
  fs.rmSync(httpRoot, { recursive: true, force: true });
});

/** The spawned attach/detach work, finished. */
async function settled(): Promise<void> {
  await lab.svc.manager.ctx.pool.drain();
}

function slots() {
  const vm = lab.bmc.system('1').virtualMedia;
  return { cd: vm.get('Cd')!, floppy: vm.get('Floppy')! };
}

test('the devices of the system\'s manager are listed with their media types', async () => {
  const node = await redfishNode(lab);
  assert.deepEqual(await lab.svc.api.getVirtualMedia(node.uuid), [
    { media_types: ['CD', 'DVD'], inserted: false, image: null },
    { media_types: ['Floppy', 'USBStick'], inserted: false, image: null },
  ]);
});

test('attach publishes the image and inserts it; detach ejects by type or all', async () => {
  const node = await redfishNode(lab);
  await lab.svc.api.attachVirtualMedia(node.uuid, 'cdrom', `${imageBase}/boot.iso`);
  await settled();
  const published = path.join(httpRoot, 'redfish', `cdrom-${node.uuid}.iso`);
  assert.deepEqual(fs.readFileSync(published), ISO);
  assert.equal(slots().cd.image, `http://conductor.example:8080/redfish/cdrom-${node.uuid}.iso`);
  assert.equal(slots().cd.inserted, true);
  assert.equal((await nodesRepo.get(lab.tmp.db, node.uuid)).last_error, null);

  // A USB stick goes into the device that offers USBStick.
  await lab.svc.api.attachVirtualMedia(node.uuid, 'disk', `${imageBase}/boot.iso`);
  await settled();
  assert.equal(slots().floppy.image, `http://conductor.example:8080/redfish/disk-${node.uuid}.img`);
  const listed = await lab.svc.api.getVirtualMedia(node.uuid);
  assert.deepEqual(listed.map((d) => d.inserted), [true, true]);

  await lab.svc.api.detachVirtualMedia(node.uuid, ['cdrom']);
  await settled();
  assert.deepEqual([slots().cd.inserted, slots().floppy.inserted], [false, true]);
  await lab.svc.api.detachVirtualMedia(node.uuid, null);
  await settled();
  assert.deepEqual([slots().cd.inserted, slots().floppy.inserted], [false, false]);
});

test('a failed attach ends in last_error and an error history event', async () => {
  const node = await redfishNode(lab);
  await lab.svc.api.attachVirtualMedia(node.uuid, 'floppy', `${imageBase}/missing.img`);
  await settled();
  const stored = await nodesRepo.get(lab.tmp.db, node.uuid);
  assert.ok(stored.last_error?.startsWith(`Could not attach device floppy to node ${node.uuid}: `), stored.last_error ?? '');
  assert.equal(slots().floppy.inserted, false);
  const events = await historyRepo.list(lab.tmp.db, { node_id: node.id }, {});
  assert.deepEqual(events.map((e) => [e.severity, e.event_type, e.event]), [['ERROR', 'UNKNOWN', stored.last_error]]);
});

test('a node without redfish management is refused as Ironic refuses it', async () => {
  const node = await lab.svc.api.createNode({ driver: 'fake-hardware' });
  await assert.rejects(lab.svc.api.getVirtualMedia(node.uuid), {
    name: 'UnsupportedDriverExtension',
    message: 'Driver fake-hardware does not support get_virtual_media (disabled or not implemented).',
  });
});
