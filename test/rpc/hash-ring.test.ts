import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { HashRing } from '../../src/rpc/hash-ring';

const HOSTS = ['conductor-a', 'conductor-b', 'cond.example.org'];
const PYTHON = '/usr/bin/python3';

test('node -> host mapping matches tooz HashRing (md5, 32 partitions)', { skip: !fs.existsSync('/usr/lib/python3/dist-packages/tooz/hashring.py') }, () => {
  const uuids = Array.from({ length: 200 }, () => randomUUID());
  const script = [
    'import json, sys',
    'from tooz import hashring',
    'hosts, uuids = json.load(sys.stdin)',
    'ring = hashring.HashRing(hosts, partitions=32)',
    'print(json.dumps([ring.get_nodes(u.encode()).pop() for u in uuids]))',
  ].join('\n');
  const out = execFileSync(PYTHON, ['-c', script], {
    input: JSON.stringify([HOSTS, uuids]), env: { ...process.env, HOME: fs.mkdtempSync('/tmp/tooz-home-') },
  }).toString();
  const expected = JSON.parse(out) as string[];
  const ring = new HashRing(HOSTS, 32);
  assert.deepEqual(uuids.map((u) => ring.hostFor(u)), expected);
});

test('empty ring maps to nothing; a single host owns everything', () => {
  assert.equal(new HashRing([]).hostFor('x'), null);
  assert.equal(new HashRing(['only']).hostFor(randomUUID()), 'only');
});
