/** Every log line is masked as API messages are: no secret reaches a log file. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { configureLogging, log } from '../../src/common/log';

test('log lines at every level have passwords and URL userinfo masked', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ironic-ts-log-'));
  const file = path.join(dir, 'ironic.log');
  try {
    configureLogging({ debug: true, logFile: file });
    log.debug("driver_info {'ipmi_password': 'SECRET1', 'ipmi_address': '10.0.0.1'}");
    log.info('ipmitool -I lanplus -H 10.0.0.1 -U admin --password SECRET2 power status');
    log.warning('Redfish at https://admin:SECRET3@bmc/redfish/v1 refused the session');
    log.error('insert into `nodes` values (\'{"token": "SECRET4"}\')');
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    assert.equal(lines.length, 4);
    assert.doesNotMatch(lines.join('\n'), /SECRET\d/);
    assert.match(lines[0], / DEBUG ironic-ts driver_info \{'ipmi_password': '\*\*\*\*\*\*'/);
    assert.match(lines[1], /--password \*\*\*\*\*\* power status$/);
    assert.match(lines[2], /https:\/\/\*\*\*\*\*\*@bmc\/redfish\/v1 refused/);
    assert.match(lines[3], /"token": "\*\*\*\*\*\*"/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
