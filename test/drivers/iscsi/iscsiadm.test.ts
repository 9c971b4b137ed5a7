/**
 * The iscsiadm path's order of commands and its clean-up, with iscsiadm's exit codes scripted (this
 * machine's kernel has no iSCSI initiator, so a real login cannot succeed here; the real iscsiadm
 * against Debian's tgtd is in compat-tests/deploy/iscsi-deploy.test.ts), and the real runner with
 * no iscsiadm on PATH.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byPathDevice, runIscsiadm, withKernelSession, type IscsiadmResult } from '../../../src/drivers/iscsi/iscsiadm';
import { TargetIoError, type IscsiTarget } from '../../../src/drivers/iscsi/target';

const T: IscsiTarget = { address: '192.0.2.7', port: 3260, iqn: 'iqn.2008-10.org.openstack:1be26c0b-03f2-4d2e-ae87-c02d7f33c123', lun: 1 };
const P = '192.0.2.7:3260';

/** A scripted iscsiadm: `answer` gives each call's result; every call is recorded. */
function scripted(answer: (args: string[]) => Partial<IscsiadmResult>) {
  const calls: string[] = [];
  const run = async (args: string[]): Promise<IscsiadmResult> => {
    calls.push(args.join(' '));
    return { code: 0, stdout: '', stderr: '', ...answer(args) };
  };
  return { calls, run };
}

/** Rejects with a TargetIoError whose message is exactly `message`. */
const ioError = (message: string) => (err: unknown) => err instanceof TargetIoError && err.message === message;

const fast = { verifyAttempts: 3, timeoutMs: 1000, retryDelayMs: () => 1, verifyDelayMs: 1 };
const session = (args: string[]) => (args.join(' ') === '-m session' ? { stdout: `tcp: [1] ${P},1 ${T.iqn} (non-flash)\n` } : {});

test('the device by path is udev\'s name for the LUN', () => {
  assert.equal(byPathDevice(T), `/dev/disk/by-path/ip-${P}-iscsi-${T.iqn}-lun-1`);
});

test('discovery, login, session check, rescan, the device, the work, then logout and delete', async () => {
  const { calls, run } = scripted(session);
  let device = '';
  const result = await withKernelSession(T, { ...fast, run, isBlockDevice: async () => true }, async (d) => { device = d; return 'done'; });
  assert.equal(result, 'done');
  assert.equal(device, byPathDevice(T));
  assert.deepEqual(calls, [
    `-m discovery -t st -p ${P}`,
    `-m node -p ${P} -T ${T.iqn} --login`,
    '-m session',
    `-m node -T ${T.iqn} -R`,
    `-m node -p ${P} -T ${T.iqn} --logout`,
    `-m node -p ${P} -T ${T.iqn} -o delete`,
  ]);
});

test('a failing login is tried 5 times, its reason reported, and the discovered record deleted', async () => {
  const { calls, run } = scripted((args) => (args.includes('--login')
    ? { code: 8, stderr: 'iscsiadm: Could not login to [iface: default, target: x, portal: y].\niscsiadm: connection login retries (reopen_max) 5 exceeded\n' }
    : {}));
  await assert.rejects(withKernelSession(T, { ...fast, run }, async () => assert.fail('no work without a session')), (err: Error) => {
    assert.ok(err instanceof TargetIoError);
    assert.equal(err.message, `iscsiadm -m node -p ${P} -T ${T.iqn} --login failed: connection login retries (reopen_max) 5 exceeded (exit code 8)`);
    return true;
  });
  assert.equal(calls.filter((c) => c.endsWith('--login')).length, 5);
  assert.equal(calls.some((c) => c.endsWith('--logout')), false, 'never logged in, nothing to log out');
  assert.equal(calls.at(-1), `-m node -p ${P} -T ${T.iqn} -o delete`);
});

test('a session that never shows, or a device that never appears, fails after verify_attempts and logs out', async () => {
  const quiet = scripted((args) => (args.join(' ') === '-m session' ? { code: 21, stderr: 'iscsiadm: No active sessions.\n' } : {}));
  await assert.rejects(withKernelSession(T, { ...fast, run: quiet.run }, async () => 1),
    ioError('iSCSI connection did not become active after attempting to verify 3 times.'));
  assert.equal(quiet.calls.filter((c) => c === '-m session').length, 3);
  assert.deepEqual(quiet.calls.slice(-2), [`-m node -p ${P} -T ${T.iqn} --logout`, `-m node -p ${P} -T ${T.iqn} -o delete`]);

  const noDevice = scripted(session);
  let checks = 0;
  await assert.rejects(withKernelSession(T, { ...fast, run: noDevice.run, isBlockDevice: async () => { checks += 1; return false; } }, async () => 1),
    ioError('iSCSI connection was not seen by the file system after attempting to verify 3 times.'));
  assert.equal(checks, 3);
  assert.deepEqual(noDevice.calls.slice(-2), [`-m node -p ${P} -T ${T.iqn} --logout`, `-m node -p ${P} -T ${T.iqn} -o delete`]);
});

test('the work\'s own failure is the one reported; a failing logout is only logged, and delete still runs', async () => {
  const { calls, run } = scripted((args) => (args.includes('--logout') ? { code: 1, stderr: 'iscsiadm: logout failed\n' } : session(args)));
  await assert.rejects(withKernelSession(T, { ...fast, run, isBlockDevice: async () => true }, async () => { throw new Error('disk full'); }),
    /^Error: disk full$/);
  assert.equal(calls.filter((c) => c.endsWith('--logout')).length, 5);
  assert.equal(calls.at(-1), `-m node -p ${P} -T ${T.iqn} -o delete`);
});

test('a delete finding no record (exit code 21) is not a failure', async () => {
  const { calls, run } = scripted((args) => (args.includes('delete') ? { code: 21, stderr: 'iscsiadm: No records found\n' } : session(args)));
  assert.equal(await withKernelSession(T, { ...fast, run, isBlockDevice: async () => true }, async () => 'ok'), 'ok');
  assert.equal(calls.filter((c) => c.endsWith('-o delete')).length, 1);
});

test('no iscsiadm on PATH: a clear error naming the package and the option', async () => {
  const saved = process.env.PATH;
  process.env.PATH = '/nonexistent-ironic-ts-path';
  try {
    await assert.rejects(runIscsiadm(['-m', 'session'], 5000),
      ioError('iscsiadm is not installed (Debian\'s open-iscsi); install it or set [iscsi]initiator = qemu-img'));
  } finally {
    process.env.PATH = saved;
  }
});
