// The ramdisk-facing and event endpoints (lookup, heartbeat, events) and vendor passthru on fake-hardware.
import type { CaseGroup } from '../types';
import { get, MAX, post } from './build';

const bindPort = {
  event: 'network.bind_port', port_id: '11111111-2222-3333-4444-555555555555', mac_address: '52:54:00:aa:bb:cc',
  status: 'ACTIVE', device_id: '66666666-7777-8888-9999-000000000000', 'binding:host_id': 'host-1',
  'binding:vnic_type': 'baremetal',
};

export const agentEventsGroup: CaseGroup = {
  group: 'agent-events',
  cases: [
    post('node for agent calls', '/v1/nodes', MAX, { driver: 'fake-hardware', name: 'agent-node', vendor_interface: 'fake' },
      { capture: { AG: 'uuid' } }),
    post('port for lookup', '/v1/ports', MAX, { node_uuid: '{AG}', address: '52:54:00:12:34:56' }),
    get('lookup at 1.21 (unknown)', '/v1/lookup?addresses=52:54:00:12:34:56', '1.21'),
    get('lookup by address, node not deploying', '/v1/lookup?addresses=52:54:00:12:34:56', MAX),
    get('lookup by uuid, node not deploying', '/v1/lookup?node_uuid={AG}', MAX),
    get('lookup by an invalid address', '/v1/lookup?addresses=not-a-mac', MAX),
    get('lookup by an unknown address', '/v1/lookup?addresses=52:54:00:ff:ff:ff', MAX),
    get('lookup by a bad uuid', '/v1/lookup?node_uuid=not-a-uuid', MAX),
    post('heartbeat at 1.21 (unknown)', '/v1/heartbeat/{AG}', '1.21', { callback_url: 'http://10.0.0.1:9999' }),
    post('heartbeat without callback_url', '/v1/heartbeat/{AG}', MAX, {}),
    post('heartbeat for a node not deploying', '/v1/heartbeat/{AG}', MAX, { callback_url: 'http://10.0.0.1:9999', agent_version: '9.0.0' }),
    post('heartbeat for an unknown node', '/v1/heartbeat/1be26c0b-03f2-4d2e-ae87-c02d7f33c123', MAX, { callback_url: 'http://10.0.0.1:9999' }),
    post('heartbeat with a bad callback_url type', '/v1/heartbeat/{AG}', MAX, { callback_url: 42 }),
    post('heartbeat with agent_status at 1.61 (too old)', '/v1/heartbeat/{AG}', '1.61',
      { callback_url: 'http://10.0.0.1:9999', agent_status: 'start' }),
    post('events at 1.53 (unknown)', '/v1/events', '1.53', { events: [bindPort] }),
    post('bind port event', '/v1/events', MAX, { events: [bindPort] }),
    post('unbind port event', '/v1/events', MAX, { events: [{ ...bindPort, event: 'network.unbind_port' }] }),
    post('delete port event', '/v1/events', MAX, { events: [{ event: 'network.delete_port', port_id: bindPort.port_id, mac_address: bindPort.mac_address, status: 'DOWN' }] }),
    post('unknown event', '/v1/events', MAX, { events: [{ ...bindPort, event: 'network.colour' }] }),
    post('event without port_id', '/v1/events', MAX, { events: [{ event: 'network.bind_port', mac_address: bindPort.mac_address, status: 'ACTIVE' }] }),
    post('event with a bad mac', '/v1/events', MAX, { events: [{ ...bindPort, mac_address: 'zz' }] }),
    post('event with an unknown key', '/v1/events', MAX, { events: [{ ...bindPort, colour: 'red' }] }),
    post('events not a list', '/v1/events', MAX, { events: bindPort }),
    post('events missing', '/v1/events', MAX, {}),
    get('node vendor methods', '/v1/nodes/{AG}/vendor_passthru/methods', MAX),
    post('node vendor call without method', '/v1/nodes/{AG}/vendor_passthru', MAX, { bar: 'baz' }),
    post('node vendor call of an unknown method', '/v1/nodes/{AG}/vendor_passthru?method=nope', MAX, { bar: 'baz' }),
    post('node vendor call missing its argument', '/v1/nodes/{AG}/vendor_passthru?method=first_method', MAX, {}),
    post('node vendor call', '/v1/nodes/{AG}/vendor_passthru?method=first_method', MAX, { bar: 'baz' }),
    get('node vendor call with a method that takes no GET', '/v1/nodes/{AG}/vendor_passthru?method=first_method', MAX),
    get('driver vendor methods', '/v1/drivers/fake-hardware/vendor_passthru/methods', MAX),
    post('driver vendor call of an unknown method', '/v1/drivers/fake-hardware/vendor_passthru?method=nope', MAX, {}),
    get('driver vendor methods of an unknown driver', '/v1/drivers/nope/vendor_passthru/methods', MAX),
  ],
};
