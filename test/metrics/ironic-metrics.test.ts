/**
 * Ironic's metric names over statsd: [metrics]global_prefix and the host (reversed by default,
 * prepend_host_reverse), Ironic's module paths, timers on the driver methods Ironic times, and
 * nothing at all with the noop backend.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as dgram from 'node:dgram';
import { Config } from '../../src/conf/config';
import { closeIronicMetrics, configureIronicMetrics, MetricLogger } from '../../src/metrics/ironic-metrics';
import { withIronicTimers } from '../../src/drivers/driver-metrics';
import type { PowerInterface } from '../../src/drivers/base';

let socket: dgram.Socket;
const received: string[] = [];

before(async () => {
  socket = dgram.createSocket('udp4');
  socket.on('message', (m) => received.push(m.toString()));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
});

after(() => {
  closeIronicMetrics();
  socket.close();
});

function configure(metrics: Record<string, string | boolean>): void {
  configureIronicMetrics(new Config([], {
    DEFAULT: { host: 'cond-1.rack-2.example.org' }, metrics,
    metrics_statsd: { statsd_host: '127.0.0.1', statsd_port: socket.address().port },
  }));
}

async function next(count: number): Promise<string[]> {
  const deadline = Date.now() + 3000;
  while (received.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  return received.splice(0, count);
}

test('names carry the global prefix and the reversed host; timers in ms, counters and gauges', async () => {
  configure({ backend: 'statsd', global_prefix: 'fleet', prepend_host: true });
  const m = new MetricLogger('ironic.conductor.manager');
  await m.time('ConductorManager.change_node_power_state', async () => undefined);
  m.counter('a_counter');
  m.gauge('a_gauge', 7);
  const lines = await next(3);
  assert.match(lines[0], /^fleet\.org\.example\.rack-2\.cond-1\.ironic\.conductor\.manager\.ConductorManager\.change_node_power_state:[\d.e-]+\|ms$/);
  assert.equal(lines[1], 'fleet.org.example.rack-2.cond-1.ironic.conductor.manager.a_counter:1|c');
  assert.equal(lines[2], 'fleet.org.example.rack-2.cond-1.ironic.conductor.manager.a_gauge:7|g');
});

test('prepend_host_reverse = false keeps the host as written; a failing call sends no timer', async () => {
  configure({ backend: 'statsd', prepend_host: true, prepend_host_reverse: false });
  const m = new MetricLogger('ironic.api.controllers.v1.node');
  await assert.rejects(m.time('NodesController.post', () => Promise.reject(new Error('boom'))));
  await m.time('NodesController.get_one', async () => undefined);
  const [line] = await next(1);
  assert.match(line, /^cond-1\.rack-2\.example\.org\.ironic\.api\.controllers\.v1\.node\.NodesController\.get_one:/);
});

test('driver methods Ironic times send its class and module names', async () => {
  configure({ backend: 'statsd' });
  const power = withIronicTimers({
    className: 'IPMIPower', name: 'ipmitool', kind: 'power',
    async getPowerState() { return 'power on'; },
  } as unknown as PowerInterface);
  assert.equal(await power.getPowerState({} as never), 'power on');
  const [line] = await next(1);
  assert.match(line, /^ironic\.drivers\.modules\.ipmitool\.IPMIPower\.get_power_state:[\d.e-]+\|ms$/);
});

test('the noop backend sends nothing', async () => {
  configure({ backend: 'noop' });
  await new MetricLogger('ironic.conductor.manager').time('ConductorManager.update_node', async () => undefined);
  await new Promise((r) => setTimeout(r, 200));
  assert.deepEqual(received, []);
});
