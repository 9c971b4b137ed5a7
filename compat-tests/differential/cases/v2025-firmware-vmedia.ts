// 2025.1 features: the firmware interface (1.86) and virtual media (1.89, GET 1.93) on fake-hardware.
// The reference enables only no-firmware, so components are never cached; vmedia calls end in last_error.
// Whole nodes are read below 1.83 or through ?fields=, so that the other 2025.1 node fields (parent_node,
// service_step, disable_power_off) do not enter this group's comparisons.
import type { CaseGroup, WaitForCase } from '../types';
import { del, delBody as delWith, get, patch, post, raw } from './build';

const V = '1.96';
const node = '/v1/nodes/{FV1}';

/** The spawned attach/detach has finished once the node's lock is released. */
const unlocked = (name: string): WaitForCase =>
  ({ kind: 'waitFor', name, path: `${node}?fields=reservation`, version: V, until: { reservation: [null] } });
const delBody = (name: string, path: string, body: unknown) => delWith(name, path, V, body);
const FIELDS = 'fields=name,driver,firmware_interface,boot_interface';

export const v2025FirmwareVmedia: CaseGroup = {
  group: 'v2025-firmware-vmedia',
  onlyRelease: '2025.1',
  cases: [
    post('node for firmware and vmedia', '/v1/nodes', '1.82', { driver: 'fake-hardware', name: 'fv-node' }, { capture: { FV1: 'uuid' } }),
    get('firmware_interface at 1.86', `${node}?fields=firmware_interface,name`, '1.86'),
    get('firmware_interface at 1.85 (too old)', `${node}?fields=firmware_interface`, '1.85'),
    get('node at 1.82 hides firmware_interface', node, '1.82'),
    patch('patch firmware_interface not enabled', node, V, [{ op: 'replace', path: '/firmware_interface', value: 'fake' }]),
    patch('patch firmware_interface unknown', node, V, [{ op: 'replace', path: '/firmware_interface', value: 'bogus' }]),
    patch('patch firmware_interface at 1.85', node, '1.85', [{ op: 'replace', path: '/firmware_interface', value: 'no-firmware' }]),
    patch('patch firmware_interface not a string', node, V, [{ op: 'replace', path: '/firmware_interface', value: 5 }]),
    get('firmware_interface after patches', `${node}?${FIELDS}`, V),
    post('create with firmware_interface at 1.85', '/v1/nodes', '1.85', { driver: 'fake-hardware', firmware_interface: 'no-firmware' }),
    post('create with firmware_interface not enabled', '/v1/nodes', V, { driver: 'fake-hardware', firmware_interface: 'fake' }),
    get('nodes list with firmware_interface', '/v1/nodes?fields=name,firmware_interface&sort_key=firmware_interface', V),
    get('nodes list sorted by firmware_interface at 1.85', '/v1/nodes?sort_key=firmware_interface', '1.85'),
    get('validate lists firmware', `${node}/validate`, V),
    get('validate at 1.85 lists firmware too', `${node}/validate`, '1.85'),
    get('driver firmware interfaces', '/v1/drivers/fake-hardware', V),
    get('driver at 1.85', '/v1/drivers/fake-hardware', '1.85'),
    get('drivers detail', '/v1/drivers?detail=True', V),
    get('driver properties', '/v1/drivers/fake-hardware/properties', V),
    get('nodes fields firmware_interface', '/v1/nodes?fields=uuid,firmware_interface', V),
    get('node firmware', `${node}/firmware`, V),
    get('node firmware at 1.85 (too old)', `${node}/firmware`, '1.85'),
    get('node firmware detail', `${node}/firmware?detail=True`, V),
    get('node firmware fields', `${node}/firmware?fields=component,current_version`, V),
    get('node firmware detail and fields', `${node}/firmware?detail=True&fields=component`, V),
    get('node firmware unexpected argument', `${node}/firmware?limit=2`, V),
    get('node firmware unknown node', '/v1/nodes/no-such-node/firmware', V),
    get('firmware as a node name', '/v1/nodes/firmware', V),
    get('vmedia as a node name', '/v1/nodes/vmedia', V),

    get('vmedia GET', `${node}/vmedia`, V),
    get('vmedia GET at 1.92 (too old)', `${node}/vmedia`, '1.92'),
    get('vmedia GET at 1.88 (too old)', `${node}/vmedia`, '1.88'),
    post('vmedia attach at 1.88 (too old)', `${node}/vmedia`, '1.88', { device_type: 'cdrom', image_url: 'http://127.0.0.1:9/boot.iso' }),
    post('vmedia attach empty body', `${node}/vmedia`, V, {}),
    raw('POST', 'vmedia attach no body', `${node}/vmedia`, V, ''),
    post('vmedia attach bad device', `${node}/vmedia`, V, { device_type: 'cd', image_url: 'http://127.0.0.1:9/boot.iso' }),
    post('vmedia attach bad source', `${node}/vmedia`, V,
      { device_type: 'cdrom', image_url: 'http://127.0.0.1:9/boot.iso', image_download_source: 'glance' }),
    post('vmedia attach extra property', `${node}/vmedia`, V, { device_type: 'cdrom', image_url: 'http://127.0.0.1:9/boot.iso', user: 'x' }),
    post('vmedia attach url not a string', `${node}/vmedia`, V, { device_type: 'cdrom', image_url: 42 }),
    post('vmedia attach ftp url', `${node}/vmedia`, V, { device_type: 'cdrom', image_url: 'ftp://127.0.0.1/boot.iso' }),
    post('vmedia attach url without scheme', `${node}/vmedia`, V, { device_type: 'disk', image_url: 'boot.img' }),
    post('vmedia attach unknown node', '/v1/nodes/no-such-node/vmedia', V, { device_type: 'disk', image_url: 'http://127.0.0.1:9/d.img' }),
    post('vmedia attach', `${node}/vmedia`, V, { device_type: 'cdrom', image_url: 'HTTP://127.0.0.1:9/boot.iso', image_download_source: 'http' }),
    unlocked('vmedia attach finished'),
    get('last_error after attach', `${node}?fields=last_error,reservation`, V),
    del('vmedia detach bad types', `${node}/vmedia?device_types=cdrom,usb`, V),
    del('vmedia detach unexpected argument', `${node}/vmedia?device=cdrom`, V),
    del('vmedia detach at 1.88 (too old)', `${node}/vmedia`, '1.88'),
    del('vmedia detach some', `${node}/vmedia?device_types=floppy,CDROM`, V),
    unlocked('vmedia detach some finished'),
    get('last_error after detach some', `${node}?fields=last_error`, V),
    delBody('vmedia detach types in the body', `${node}/vmedia`, { device_types: ['cdrom'] }),
    unlocked('vmedia detach types in the body finished'),
    get('last_error after detach by body', `${node}?fields=last_error`, V),
    delBody('vmedia detach types in the body as a string', `${node}/vmedia`, { device_types: 'Floppy, CDROM' }),
    unlocked('vmedia detach types as a string finished'),
    delBody('vmedia detach bad types in the body', `${node}/vmedia`, { device_types: ['cdrom', 'usb'] }),
    delBody('vmedia detach upper-case types in a body list', `${node}/vmedia`, { device_types: ['CDROM'] }),
    delBody('vmedia detach types not strings', `${node}/vmedia`, { device_types: [1] }),
    delBody('vmedia detach types a number', `${node}/vmedia`, { device_types: 5 }),
    delBody('vmedia detach unexpected argument in the body', `${node}/vmedia`, { device_type: 'cdrom' }),
    delBody('vmedia detach types in query and body', `${node}/vmedia?device_types=cdrom`, { device_types: 'floppy' }),
    del('vmedia detach repeated query types', `${node}/vmedia?device_types=cdrom&device_types=floppy`, V),
    unlocked('vmedia detach repeated query types finished'),
    raw('DELETE', 'vmedia detach types in a form body', `${node}/vmedia`, V, 'device_types=usb',
      { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }),
    delBody('vmedia detach empty list in the body', `${node}/vmedia`, { device_types: [] }),
    unlocked('vmedia detach empty list finished'),
    del('vmedia detach all', `${node}/vmedia`, V),
    unlocked('vmedia detach all finished'),
    get('last_error after detach all', `${node}?fields=last_error`, V),
    get('history after vmedia calls', `${node}/history?detail=True`, V),
  ],
};
