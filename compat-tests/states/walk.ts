/**
 * The provision state machine of Ironic 21.4.4 walked through the REST API on fake-hardware:
 * every verb from every state it applies to, the failures the fake interfaces can produce, and
 * (from seeded wait/failed states) aborts, callback timeouts and the verbs out of failed states.
 * Power and maintenance changes are interleaved where a client would meet them.
 */
import type { Recorder } from './recorder';
import { seedNode, Seed } from './seed';

const PROV = '/states/provision';
const POWER = '/states/power';
const CONFIGDRIVE = 'H4sICDw2R2YAA2NvbmZpZ2RyaXZlAAMAAAAAAAAAAAA=';
const OLD = 7200;

type N = Record<string, unknown>;
const inState = (...states: string[]) => (n: N) => states.includes(String(n.provision_state));
const leftState = (state: string) => (n: N) => n.provision_state !== state;

async function prov(r: Recorder, step: string, name: string, body: Record<string, unknown>, version?: string,
  until?: (n: N) => boolean): Promise<void> {
  await r.act(step, name, 'PUT', PROV, body, version, until);
}

async function seed(r: Recorder, step: string, name: string, s: Seed): Promise<void> {
  seedNode(r.target.dbFile, r.uuidOf(name), s);
  // A wait state seeded long ago is the periodic timeout check's to fail, once a second on both
  // sides: reading it back would race that check, so only the outcome (the next waitFor) is compared.
  if (s.ageSeconds === 0) await r.record(step, name, {});
}

/** enroll -> manageable -> available, the way into most scenarios. */
async function toAvailable(r: Recorder, name: string): Promise<void> {
  await prov(r, `${name}: manage`, name, { target: 'manage' });
  await prov(r, `${name}: provide`, name, { target: 'provide' });
}

async function lifecycle(r: Recorder): Promise<void> {
  const n = 'life';
  await r.createNode(n, { rescue_interface: 'fake' });
  await r.act(`${n}: power on in enroll`, n, 'PUT', POWER, { target: 'power on' });
  await prov(r, `${n}: manage (verify)`, n, { target: 'manage' });
  await prov(r, `${n}: inspect`, n, { target: 'inspect' });
  await prov(r, `${n}: manual clean, bios.factory_reset`, n, { target: 'clean', clean_steps: [{ interface: 'bios', step: 'factory_reset' }] });
  await prov(r, `${n}: manual clean, unknown step`, n, { target: 'clean', clean_steps: [{ interface: 'deploy', step: 'erase_devices' }] },
    undefined, inState('clean failed'));
  await prov(r, `${n}: manage from clean failed`, n, { target: 'manage' });
  await prov(r, `${n}: provide`, n, { target: 'provide' });
  await prov(r, `${n}: manage from available`, n, { target: 'manage' });
  await prov(r, `${n}: provide again`, n, { target: 'provide' });
  await r.act(`${n}: maintenance on`, n, 'PUT', '/maintenance', { reason: 'fan' });
  await prov(r, `${n}: deploy in maintenance`, n, { target: 'active' });
  await r.act(`${n}: maintenance off`, n, 'DELETE', '/maintenance');
  // Port 9 refuses connections: the reference's "is it a directory listing?" probe fails fast.
  await r.act(`${n}: set an image`, n, 'PATCH', '', [{ op: 'add', path: '/instance_info/image_source', value: 'http://127.0.0.1:9/img' }]);
  await prov(r, `${n}: deploy with configdrive`, n, { target: 'active', configdrive: CONFIGDRIVE });
  await prov(r, `${n}: rebuild`, n, { target: 'rebuild' });
  await prov(r, `${n}: rebuild with configdrive`, n, { target: 'rebuild', configdrive: { meta_data: { hostname: 'x' } } });
  await r.act(`${n}: power off`, n, 'PUT', POWER, { target: 'power off' });
  await r.act(`${n}: reboot`, n, 'PUT', POWER, { target: 'rebooting' });
  await r.act(`${n}: soft reboot`, n, 'PUT', POWER, { target: 'soft rebooting' });
  await r.act(`${n}: soft power off`, n, 'PUT', POWER, { target: 'soft power off', timeout: 5 });
  await r.act(`${n}: power on`, n, 'PUT', POWER, { target: 'power on' });
  await prov(r, `${n}: rescue`, n, { target: 'rescue', rescue_password: 'secret' });
  await prov(r, `${n}: rescue again from rescue`, n, { target: 'rescue', rescue_password: 'other' });
  await prov(r, `${n}: unrescue`, n, { target: 'unrescue' });
  await prov(r, `${n}: rescue to undeploy`, n, { target: 'rescue', rescue_password: 'secret' });
  await prov(r, `${n}: undeploy from rescue`, n, { target: 'deleted' });
  await prov(r, `${n}: deploy verb`, n, { target: 'deploy' });
  await prov(r, `${n}: undeploy verb`, n, { target: 'undeploy' });
  await r.act(`${n}: maintenance on for provide`, n, 'PUT', '/maintenance', { reason: 'check' });
  await prov(r, `${n}: manage in maintenance`, n, { target: 'manage' });
  await prov(r, `${n}: provide in maintenance`, n, { target: 'provide' });
  await r.act(`${n}: maintenance off again`, n, 'DELETE', '/maintenance');
}

async function deployFailure(r: Recorder): Promise<void> {
  const n = 'dfail';
  await r.createNode(n);
  await toAvailable(r, n);
  // Disabling the only deploy step of fake-hardware passes validation, then the worker finds no
  // step to run: the deployment fails (the one deploy failure fake interfaces can produce).
  const bad = [{ interface: 'deploy', step: 'deploy', args: {}, priority: 0 }];
  await prov(r, `${n}: deploy with every step disabled`, n, { target: 'active', deploy_steps: bad });
  await prov(r, `${n}: rebuild from deploy failed`, n, { target: 'rebuild' });
  await prov(r, `${n}: undeploy`, n, { target: 'deleted' });
  await prov(r, `${n}: fail again`, n, { target: 'active', deploy_steps: bad });
  await prov(r, `${n}: deploy from deploy failed`, n, { target: 'active' });
  await prov(r, `${n}: fail once more`, n, { target: 'rebuild', deploy_steps: bad });
  await prov(r, `${n}: undeploy from deploy failed`, n, { target: 'deleted' });
}

async function adoption(r: Recorder): Promise<void> {
  const n = 'adopt';
  // image_type given: the reference decides without asking the image's server.
  await r.createNode(n, { instance_info: { image_source: 'http://127.0.0.1:9/img', image_type: 'partition',
    kernel: 'http://127.0.0.1:9/k', ramdisk: 'http://127.0.0.1:9/r' } });
  await prov(r, `${n}: manage`, n, { target: 'manage' });
  await prov(r, `${n}: adopt`, n, { target: 'adopt' });
  await prov(r, `${n}: undeploy adopted`, n, { target: 'deleted' });
  await prov(r, `${n}: manage`, n, { target: 'manage' });
  await seed(r, `${n}: seeded adopt failed`, n, { provision_state: 'adopt failed', target_provision_state: 'active',
    ageSeconds: 0, last_error: 'seeded', power_state: 'power on' });
  await prov(r, `${n}: manage from adopt failed`, n, { target: 'manage' });
  await seed(r, `${n}: seeded adopt failed again`, n, { provision_state: 'adopt failed', target_provision_state: 'active',
    ageSeconds: 0, last_error: 'seeded' });
  await prov(r, `${n}: adopt from adopt failed`, n, { target: 'adopt' });
}

/** Wait states (seeded fresh): aborts and the other verbs out of them. */
async function waits(r: Recorder): Promise<void> {
  const n = 'wait';
  await r.createNode(n, { rescue_interface: 'fake' });
  await toAvailable(r, n);
  await prov(r, `${n}: deploy`, n, { target: 'active' });
  await seed(r, `${n}: seeded deploy wait`, n, { provision_state: 'wait call-back', target_provision_state: 'active', ageSeconds: 0 });
  await prov(r, `${n}: abort in deploy wait`, n, { target: 'abort' });
  await prov(r, `${n}: undeploy from deploy wait`, n, { target: 'deleted' });
  await prov(r, `${n}: manage`, n, { target: 'manage' });
  await seed(r, `${n}: seeded clean wait (manual, abortable step)`, n, { provision_state: 'clean wait', target_provision_state: 'manageable',
    ageSeconds: 0, clean_step: { interface: 'deploy', step: 'erase_devices', abortable: true, priority: 10, args: {} },
    driver_internal_info: { clean_step_index: 0, cleaning_reboot: true, agent_url: 'http://10.0.0.1:9999' } });
  await prov(r, `${n}: abort in clean wait`, n, { target: 'abort' }, undefined, inState('clean failed'));
  await prov(r, `${n}: manage from clean failed`, n, { target: 'manage' });
  await seed(r, `${n}: seeded clean wait (automated, no step)`, n, { provision_state: 'clean wait', target_provision_state: 'available',
    ageSeconds: 0, clean_step: {} });
  await prov(r, `${n}: abort in clean wait without step`, n, { target: 'abort' }, undefined, inState('clean failed'));
  await prov(r, `${n}: manage`, n, { target: 'manage' });
  await seed(r, `${n}: seeded clean wait (non-abortable step)`, n, { provision_state: 'clean wait', target_provision_state: 'manageable',
    ageSeconds: 0, clean_step: { interface: 'deploy', step: 'erase_devices', abortable: false, priority: 10, args: {} } });
  await prov(r, `${n}: abort a non-abortable step`, n, { target: 'abort' });
  await seed(r, `${n}: seeded inspect wait`, n, { provision_state: 'inspect wait', target_provision_state: 'manageable', ageSeconds: 0 });
  // fake inspect cannot abort (the base interface's abort is not implemented): refused, node stays.
  await prov(r, `${n}: abort in inspect wait`, n, { target: 'abort' });
  await seed(r, `${n}: seeded inspect failed`, n, { provision_state: 'inspect failed', target_provision_state: 'manageable',
    ageSeconds: 0, last_error: 'seeded' });
  await prov(r, `${n}: inspect from inspect failed`, n, { target: 'inspect' });
  await seed(r, `${n}: seeded inspect failed again`, n, { provision_state: 'inspect failed', target_provision_state: 'manageable',
    ageSeconds: 0, last_error: 'seeded' });
  await prov(r, `${n}: manage from inspect failed`, n, { target: 'manage' });
  await prov(r, `${n}: provide`, n, { target: 'provide' });
  await prov(r, `${n}: deploy for rescue`, n, { target: 'active' });
  await seed(r, `${n}: seeded rescue wait`, n, { provision_state: 'rescue wait', target_provision_state: 'rescue', ageSeconds: 0,
    instance_info: { rescue_password: 'pw', hashed_rescue_password: 'x' } });
  await prov(r, `${n}: abort in rescue wait`, n, { target: 'abort' });
  await prov(r, `${n}: unrescue from rescue failed`, n, { target: 'unrescue' });
  await seed(r, `${n}: seeded rescue wait again`, n, { provision_state: 'rescue wait', target_provision_state: 'rescue', ageSeconds: 0 });
  await prov(r, `${n}: undeploy from rescue wait`, n, { target: 'deleted' });
  await prov(r, `${n}: deploy again`, n, { target: 'active' });
  await seed(r, `${n}: seeded rescue failed`, n, { provision_state: 'rescue failed', target_provision_state: 'rescue', ageSeconds: 0 });
  await prov(r, `${n}: rescue from rescue failed`, n, { target: 'rescue', rescue_password: 'pw' });
  await seed(r, `${n}: seeded unrescue failed`, n, { provision_state: 'unrescue failed', target_provision_state: 'active', ageSeconds: 0 });
  await prov(r, `${n}: rescue from unrescue failed`, n, { target: 'rescue', rescue_password: 'pw' });
  await seed(r, `${n}: seeded unrescue failed again`, n, { provision_state: 'unrescue failed', target_provision_state: 'active', ageSeconds: 0 });
  await prov(r, `${n}: unrescue from unrescue failed`, n, { target: 'unrescue' });
  await seed(r, `${n}: seeded unrescue failed once more`, n, { provision_state: 'unrescue failed', target_provision_state: 'active', ageSeconds: 0 });
  await prov(r, `${n}: undeploy from unrescue failed`, n, { target: 'deleted' });
  await prov(r, `${n}: deploy after unrescue failed`, n, { target: 'active' });
  await seed(r, `${n}: seeded rescue failed again`, n, { provision_state: 'rescue failed', target_provision_state: 'rescue', ageSeconds: 0 });
  await prov(r, `${n}: undeploy from rescue failed`, n, { target: 'deleted' });
  await prov(r, `${n}: deploy for error`, n, { target: 'active' });
  await seed(r, `${n}: seeded error`, n, { provision_state: 'error', target_provision_state: null, ageSeconds: 0, last_error: 'seeded' });
  await prov(r, `${n}: rebuild from error`, n, { target: 'rebuild' });
  await seed(r, `${n}: seeded error again`, n, { provision_state: 'error', target_provision_state: null, ageSeconds: 0 });
  await prov(r, `${n}: undeploy from error`, n, { target: 'deleted' });
}

/** Wait states seeded long ago: the periodic callback-timeout checks fail them. */
async function timeouts(r: Recorder): Promise<void> {
  const n = 'late';
  await r.createNode(n, { rescue_interface: 'fake' });
  await toAvailable(r, n);
  await prov(r, `${n}: deploy`, n, { target: 'active' });
  await seed(r, `${n}: seeded old deploy wait`, n, { provision_state: 'wait call-back', target_provision_state: 'active',
    ageSeconds: OLD, driver_internal_info: { deploy_step_index: 0, agent_url: 'http://10.0.0.1:9999' } });
  await r.waitFor(`${n}: deploy wait timed out`, n, leftState('wait call-back'));
  await prov(r, `${n}: deploy after timeout`, n, { target: 'active' });
  await seed(r, `${n}: seeded old rescue wait`, n, { provision_state: 'rescue wait', target_provision_state: 'rescue', ageSeconds: OLD });
  await r.waitFor(`${n}: rescue wait timed out`, n, leftState('rescue wait'));
  await prov(r, `${n}: undeploy`, n, { target: 'deleted' });
  await prov(r, `${n}: manage`, n, { target: 'manage' });
  await seed(r, `${n}: seeded old clean wait with a step`, n, { provision_state: 'clean wait', target_provision_state: 'manageable',
    ageSeconds: OLD, clean_step: { interface: 'deploy', step: 'erase_devices', abortable: true, priority: 10, args: {} } });
  await r.waitFor(`${n}: clean wait timed out`, n, leftState('clean wait'));
  await r.act(`${n}: maintenance off`, n, 'DELETE', '/maintenance');
  await prov(r, `${n}: manage`, n, { target: 'manage' });
  await seed(r, `${n}: seeded old clean wait without step`, n, { provision_state: 'clean wait', target_provision_state: 'available',
    ageSeconds: OLD, clean_step: null });
  await r.waitFor(`${n}: clean wait (no step) timed out`, n, leftState('clean wait'));
  await prov(r, `${n}: manage again`, n, { target: 'manage' });
  await seed(r, `${n}: seeded old inspect wait`, n, { provision_state: 'inspect wait', target_provision_state: 'manageable', ageSeconds: OLD });
  await r.waitFor(`${n}: inspect wait timed out`, n, leftState('inspect wait'));
  await r.act(`${n}: maintenance on`, n, 'PUT', '/maintenance', { reason: 'hold' });
  await seed(r, `${n}: seeded old deploy wait in maintenance`, n, { provision_state: 'wait call-back', target_provision_state: 'active',
    ageSeconds: OLD });
  // Maintenance shields a node from the timeout checks: it must still be waiting a few checks later.
  await new Promise((res) => setTimeout(res, 3500));
  await r.record(`${n}: deploy wait in maintenance not timed out`, n, {});
}

const V2025 = '1.96';
const LOG_STEP = [{ interface: 'vendor', step: 'log_passthrough' }];
const WAIT_STEP = [{ interface: 'vendor', step: 'trigger_servicewait' }];

/**
 * Servicing (1.87) through the fake vendor's service steps: its version gate after the state check,
 * a failure, service wait and the verbs out of it and out of service failed.
 */
async function servicing(r: Recorder): Promise<void> {
  const n = 'svc';
  await r.createNode(n, { rescue_interface: 'fake' });
  await prov(r, `${n}: service from enroll at 1.86`, n, { target: 'service', service_steps: LOG_STEP }, '1.86');
  await toAvailable(r, n);
  await prov(r, `${n}: deploy`, n, { target: 'active' });
  await prov(r, `${n}: service at 1.86`, n, { target: 'service', service_steps: LOG_STEP }, '1.86');
  await prov(r, `${n}: service`, n, { target: 'service', service_steps: LOG_STEP }, V2025);
  await prov(r, `${n}: service an unknown step`, n, { target: 'service', service_steps: [{ interface: 'vendor', step: 'nope' }] },
    V2025, inState('service failed'));
  await prov(r, `${n}: abort from service failed`, n, { target: 'abort' }, V2025);
  await prov(r, `${n}: rescue from service failed`, n, { target: 'rescue', rescue_password: 'pw' }, V2025);
  await prov(r, `${n}: unrescue`, n, { target: 'unrescue' }, V2025);
  await prov(r, `${n}: service into service wait`, n, { target: 'service', service_steps: WAIT_STEP }, V2025, inState('service wait'));
  await prov(r, `${n}: unhold from service wait`, n, { target: 'unhold' }, V2025);
  await prov(r, `${n}: abort service wait`, n, { target: 'abort' }, V2025, inState('service failed'));
  await prov(r, `${n}: service from service failed`, n, { target: 'service', service_steps: LOG_STEP }, V2025);
  await prov(r, `${n}: service wait again`, n, { target: 'service', service_steps: WAIT_STEP }, V2025, inState('service wait'));
  await prov(r, `${n}: undeploy from service wait`, n, { target: 'deleted' }, V2025);
  await prov(r, `${n}: deploy again`, n, { target: 'active' }, V2025);
  await prov(r, `${n}: service wait once more`, n, { target: 'service', service_steps: WAIT_STEP }, V2025, inState('service wait'));
  await prov(r, `${n}: abort it`, n, { target: 'abort' }, V2025, inState('service failed'));
  await prov(r, `${n}: undeploy from service failed`, n, { target: 'deleted' }, V2025);
}

/**
 * The hold states (1.85), seeded: no step list Ironic 2025.1 validates keeps a `hold` step, so
 * no flow reaches them on its own. unhold and abort out of each.
 */
async function holds(r: Recorder): Promise<void> {
  const n = 'held';
  const hold = { interface: 'deploy', step: 'hold', abortable: true, priority: 0, args: {} };
  await r.createNode(n);
  await prov(r, `${n}: manage`, n, { target: 'manage' });
  await seed(r, `${n}: seeded clean hold`, n, { provision_state: 'clean hold', target_provision_state: 'manageable', ageSeconds: 0,
    clean_step: hold, driver_internal_info: { clean_steps: [hold], clean_step_index: 0 } });
  await prov(r, `${n}: unhold at 1.84`, n, { target: 'unhold' }, '1.84');
  await prov(r, `${n}: unhold from clean hold`, n, { target: 'unhold' }, V2025);
  await prov(r, `${n}: abort the clean wait`, n, { target: 'abort' }, V2025);
  await prov(r, `${n}: manage from clean failed`, n, { target: 'manage' }, V2025);
  await seed(r, `${n}: seeded clean hold again`, n, { provision_state: 'clean hold', target_provision_state: 'manageable',
    ageSeconds: 0, clean_step: hold });
  await prov(r, `${n}: abort clean hold`, n, { target: 'abort' }, V2025);
  await prov(r, `${n}: manage`, n, { target: 'manage' }, V2025);
  await prov(r, `${n}: provide`, n, { target: 'provide' }, V2025);
  await prov(r, `${n}: deploy`, n, { target: 'active' }, V2025);
  await seed(r, `${n}: seeded deploy hold`, n, { provision_state: 'deploy hold', target_provision_state: 'active', ageSeconds: 0 });
  await prov(r, `${n}: unhold from deploy hold`, n, { target: 'unhold' }, V2025);
  await prov(r, `${n}: undeploy from deploy wait`, n, { target: 'deleted' }, V2025);
  await prov(r, `${n}: deploy again`, n, { target: 'active' }, V2025);
  await seed(r, `${n}: seeded deploy hold again`, n, { provision_state: 'deploy hold', target_provision_state: 'active', ageSeconds: 0 });
  await prov(r, `${n}: abort deploy hold`, n, { target: 'abort' }, V2025);
  await prov(r, `${n}: deploy from there`, n, { target: 'active' }, V2025);
  await seed(r, `${n}: seeded service hold`, n, { provision_state: 'service hold', target_provision_state: 'active', ageSeconds: 0,
    service_step: hold, driver_internal_info: { service_steps: [hold], service_step_index: 0 } });
  await prov(r, `${n}: undeploy from service hold`, n, { target: 'deleted' }, V2025);
  await prov(r, `${n}: abort service hold`, n, { target: 'abort' }, V2025, inState('service failed'));
  await seed(r, `${n}: seeded service hold again`, n, { provision_state: 'service hold', target_provision_state: 'active',
    ageSeconds: 0, service_step: hold, driver_internal_info: { service_steps: [hold], service_step_index: 0 } });
  await prov(r, `${n}: service from service hold`, n, { target: 'service', service_steps: LOG_STEP }, V2025);
  await seed(r, `${n}: seeded service hold once more`, n, { provision_state: 'service hold', target_provision_state: 'active',
    ageSeconds: 0, service_step: hold, driver_internal_info: { service_steps: [hold], service_step_index: 0 } });
  await prov(r, `${n}: unhold from service hold`, n, { target: 'unhold' }, V2025, inState('service failed', 'active'));
}

/** The walk; `release2025` adds the verbs of Ironic 2025.1 (a 2023.1 reference has none of them). */
export async function walk(r: Recorder, release2025 = false): Promise<void> {
  await lifecycle(r);
  await deployFailure(r);
  await adoption(r);
  await waits(r);
  await timeouts(r);
  const names = ['life', 'dfail', 'adopt', 'wait', 'late'];
  if (release2025) {
    await servicing(r);
    await holds(r);
    names.push('svc', 'held');
  }
  for (const name of names) await r.history(name);
}
