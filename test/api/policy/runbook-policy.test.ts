/** Ironic 2025.1's runbook rules and step rules as the enforcer evaluates them (legacy defaults, as Ironic's own). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PolicyCreds } from '../../../src/api/policy/check';
import { createEnforcer } from '../../../src/api/policy/enforcer';
import { Config } from '../../../src/conf/config';

const system = (roles: string[]): PolicyCreds => ({ roles, system_scope: 'all', project_id: null });
const project = (roles: string[], id: string): PolicyCreds => ({ roles, system_scope: null, project_id: id, project_name: 'x' });

describe('runbook policy', () => {
  const e = createEnforcer(new Config());
  const on = (creds: PolicyCreds, owner: string | null) => ({ ...creds, 'runbook.owner': owner });

  it('lets system members and the owning project\'s managers use and change a runbook', () => {
    for (const rule of ['baremetal:runbook:use', 'baremetal:runbook:update', 'baremetal:runbook:delete']) {
      assert.equal(e.allowed(rule, system(['member']), on(system(['member']), null)), true, rule);
      assert.equal(e.allowed(rule, project(['manager'], 'p1'), on(project(['manager'], 'p1'), 'p1')), true, rule);
      assert.equal(e.allowed(rule, project(['manager'], 'p1'), on(project(['manager'], 'p1'), 'p2')), false, rule);
      assert.equal(e.allowed(rule, project(['member'], 'p1'), on(project(['member'], 'p1'), 'p1')), false, rule);
    }
  });

  it('lets readers of the owning project read it, and only system members make it public or move it', () => {
    assert.equal(e.allowed('baremetal:runbook:get', project(['reader'], 'p1'), on(project(['reader'], 'p1'), 'p1')), true);
    assert.equal(e.allowed('baremetal:runbook:get', project(['reader'], 'p1'), on(project(['reader'], 'p1'), 'p2')), false);
    for (const rule of ['baremetal:runbook:update:public', 'baremetal:runbook:update:owner']) {
      assert.equal(e.allowed(rule, system(['member'])), true, rule);
      assert.equal(e.allowed(rule, project(['manager'], 'p1')), false, rule);
    }
    assert.equal(e.allowed('baremetal:runbook:create', project(['manager'], 'p1')), true);
    assert.equal(e.allowed('baremetal:runbook:create', project(['member'], 'p1')), false);
    assert.equal(e.allowed('baremetal:runbook:list_all', project(['reader'], 'p1')), false);
    assert.equal(e.allowed('baremetal:runbook:list', project(['reader'], 'p1')), true);
  });

  it('lets the owner\'s members and the lessee\'s admins run arbitrary steps', () => {
    const node = (creds: PolicyCreds) => ({ ...creds, 'node.owner': 'own', 'node.lessee': 'les' });
    for (const rule of ['baremetal:node:set_provision_state:clean_steps', 'baremetal:node:set_provision_state:service_steps']) {
      assert.equal(e.allowed(rule, project(['member'], 'own'), node(project(['member'], 'own'))), true, rule);
      assert.equal(e.allowed(rule, project(['member'], 'les'), node(project(['member'], 'les'))), false, rule);
      assert.equal(e.allowed(rule, project(['admin'], 'les'), node(project(['admin'], 'les'))), true, rule);
      assert.equal(e.allowed(rule, system(['member']), node(system(['member']))), true, rule);
    }
  });
});
