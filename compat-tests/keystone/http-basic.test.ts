/**
 * auth_strategy = http_basic: an htpasswd file with bcrypt entries from Debian's htpasswd ($2y$)
 * and python3-bcrypt ($2b$); every answer compared with ironic_lib's own BasicAuthMiddleware run
 * on the same file, and Debian's baremetal CLI authenticating with keystoneauth's http_basic.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort, startIronicTs, Target } from '../support/target';

/** ironic_lib's middleware around a stub app, answering each Authorization header given on stdin. */
const IRONIC_LIB_PY = `
import json, sys
from ironic_lib import auth_basic
def app(env, start):
    start('200 OK', [('Content-Type', 'text/plain')])
    return [b'']
mw = auth_basic.BasicAuthMiddleware(app, sys.argv[1])
out = []
for header in json.loads(sys.stdin.read()):
    env = {'REQUEST_METHOD': 'GET', 'PATH_INFO': '/v1/nodes', 'SERVER_NAME': 'x', 'SERVER_PORT': '80', 'wsgi.url_scheme': 'http'}
    if header is not None:
        env['HTTP_AUTHORIZATION'] = header
    seen = {}
    def start(status, headers, exc_info=None):
        seen['status'] = int(status.split()[0]); seen['headers'] = dict(headers)
    body = b''.join(mw(env, start)).decode()
    out.append({'status': seen['status'], 'www': seen['headers'].get('WWW-Authenticate'),
                'type': seen['headers'].get('Content-Type'), 'body': body if seen['status'] != 200 else ''})
print(json.dumps(out))
`;

const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

const HEADERS: (string | null)[] = [
  null,
  basic('alice', 'wonder land'),
  basic('alice', 'wrong'),
  basic('bob', 'b0b-pässword'),
  basic('bob', 'b0b-passwor'),
  basic('nobody', 'x'),
  'Bearer abc',
  'Basic',
  'Basic !!!',
  `Basic ${Buffer.from('no-colon').toString('base64')}`,
  `basic ${Buffer.from('alice:wonder land').toString('base64')}`,
];

let dir: string;
let ironic: Target;
let htpasswdFile: string;

function pythonEnv(): Record<string, string> {
  return { PATH: '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8' };
}

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ironic-http-basic-'));
  htpasswdFile = path.join(dir, 'htpasswd');
  execFileSync('/usr/bin/htpasswd', ['-cbB', '-C', '5', htpasswdFile, 'alice', 'wonder land'], { stdio: 'ignore' });
  const bobHash = execFileSync('/usr/bin/python3', ['-c',
    'import bcrypt,sys; print(bcrypt.hashpw(sys.argv[1].encode(), bcrypt.gensalt(6)).decode())', 'b0b-pässword'],
  { env: pythonEnv() }).toString().trim();
  fs.appendFileSync(htpasswdFile, `bob:${bobHash}\n`);
  const ironicDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ironic-http-basic-ts-'));
  try {
    ironic = await startIronicTs(ironicDir, await freePort(),
      `auth_strategy = http_basic\nhttp_basic_auth_user_file = ${htpasswdFile}\n`);
  } catch (err) {
    fs.rmSync(ironicDir, { recursive: true, force: true });
    throw err;
  }
});

after(async () => {
  await ironic?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function ours(header: string | null): Promise<{ status: number; www: string | null; type: string | null; body: string }> {
  const res = await fetch(`${ironic.url}/v1/nodes`, { headers: header === null ? {} : { Authorization: header } });
  const text = await res.text();
  return {
    status: res.status,
    www: res.headers.get('www-authenticate'),
    type: res.status === 200 ? null : res.headers.get('content-type'),
    body: res.status === 200 ? '' : text,
  };
}

describe('http_basic', () => {
  it('answers every Authorization header as ironic_lib\'s BasicAuthMiddleware does', async () => {
    const reference = JSON.parse(execFileSync('/usr/bin/python3', ['-c', IRONIC_LIB_PY, htpasswdFile],
      { env: pythonEnv(), input: JSON.stringify(HEADERS) }).toString()) as { status: number; www: string | null; type: string | null; body: string }[];
    for (const [i, header] of HEADERS.entries()) {
      const expected = { ...reference[i], type: reference[i].status === 200 ? null : reference[i].type };
      assert.deepEqual(await ours(header), expected, `Authorization: ${header}`);
    }
    // The statuses themselves, so a broken reference run cannot make the comparison vacuous.
    assert.deepEqual(reference.map((r) => r.status), [401, 200, 401, 200, 401, 401, 400, 400, 400, 400, 200]);
  });

  it('keeps / and /v1 open', async () => {
    assert.equal((await fetch(`${ironic.url}/`)).status, 200);
    assert.equal((await fetch(`${ironic.url}/v1`)).status, 200);
  });

  it('serves Debian\'s baremetal CLI with keystoneauth\'s http_basic plugin', async () => {
    const env = { ...pythonEnv(), OS_AUTH_TYPE: 'http_basic', OS_ENDPOINT: ironic.url, OS_USERNAME: 'alice', OS_PASSWORD: 'wonder land' };
    const created = await cli(['node', 'create', '--driver', 'fake-hardware', '--name', 'basic-node', '-f', 'json'], env);
    assert.equal(created.code, 0, created.stderr);
    const listed = await cli(['node', 'list', '-f', 'json'], env);
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual((JSON.parse(listed.stdout) as { Name: string }[]).map((n) => n.Name), ['basic-node']);
    const refused = await cli(['node', 'list'], { ...env, OS_PASSWORD: 'nope' });
    assert.notEqual(refused.code, 0);
  });

  it('refuses to start on an htpasswd entry that is not bcrypt', async () => {
    const bad = path.join(dir, 'htpasswd-md5');
    execFileSync('/usr/bin/htpasswd', ['-cbm', bad, 'carol', 'pw'], { stdio: 'ignore' });
    const badDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ironic-http-basic-bad-'));
    try {
      await assert.rejects(startIronicTs(badDir, await freePort(), `auth_strategy = http_basic\nhttp_basic_auth_user_file = ${bad}\n`),
        /Only bcrypt digested passwords are supported for carol/);
    } finally {
      fs.rmSync(badDir, { recursive: true, force: true });
    }
  });
});

function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('/usr/bin/baremetal', args, { env, timeout: 180000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}
