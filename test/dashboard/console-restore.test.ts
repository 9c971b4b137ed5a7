/**
 * A conductor that starts finds its nodes with console_enabled and starts their consoles again
 * (Ironic's _start_consoles): socat comes back for a node whose BMC answers (ipmi_sim with SOL), and
 * a console that cannot start turns console_enabled off with a startup-failure last_error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Config } from '../../src/conf/config';
import { embeddedDefaults } from '../../src/conf/embedded';
import { openDatabase } from '../../src/db/connection';
import { upgrade } from '../../src/db/sync';
import * as nodes from '../../src/db/repositories/nodes';
import { startConductorService } from '../../src/conductor/service';
import { stopSocatConsole } from '../../src/drivers/console/socat';
import { freePort } from '../../compat-tests/support/target';
import { startSolSim, USER, PASSWORD } from './support/sol-sim';

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

test('a starting conductor restores enabled consoles and disables the ones that fail', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-restore-'));
  const sim = await startSolSim();
  const defaults = embeddedDefaults(dir);
  const conf = new Config([], {
    ...defaults,
    DEFAULT: { ...defaults.DEFAULT, host: 'restore-conductor', tempdir: dir, enabled_console_interfaces: ['fake', 'no-console', 'ipmitool-socat'] },
    console: { socat_address: '127.0.0.1', terminal_pid_dir: path.join(dir, 'pids') },
  });
  const db = await openDatabase(conf.str('database', 'connection'));
  await upgrade(db);
  const terminalPort = await freePort();
  const common = { driver: 'ipmi', console_interface: 'ipmitool-socat', console_enabled: true, provision_state: 'manageable' };
  const good = await nodes.create(db, {
    ...common, uuid: randomUUID(), name: 'restored',
    driver_info: { ipmi_address: '127.0.0.1', ipmi_port: sim.port, ipmi_username: USER, ipmi_password: PASSWORD, ipmi_terminal_port: terminalPort },
  });
  // No ipmi_terminal_port and no [console]port_range: its console cannot start.
  const bad = await nodes.create(db, {
    ...common, uuid: randomUUID(), name: 'unrestorable',
    driver_info: { ipmi_address: '127.0.0.1', ipmi_port: sim.port, ipmi_username: USER, ipmi_password: PASSWORD },
  });
  const service = await startConductorService({ conf, db });
  try {
    await waitUntil(async () => !(await nodes.find(db, bad.uuid)).console_enabled, 20000, 'the failed console to be disabled');
    assert.match(String((await nodes.find(db, bad.uuid)).last_error),
      /^Failed to start console of node \S+ while starting the conductor, so changing the console_enabled status to False, error: /);
    await waitUntil(() => accepts(terminalPort), 20000, 'socat to listen again');
    assert.ok(fs.existsSync(path.join(dir, 'pids', `${good.uuid}.pid`)));
    assert.equal((await nodes.find(db, good.uuid)).console_enabled, true);
  } finally {
    await stopSocatConsole(conf, good.uuid);
    await service.stop();
    await db.close();
    await sim.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
