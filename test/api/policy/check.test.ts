/** oslo.policy check strings and Ironic's default rules as the enforcer evaluates them. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { evaluate, parseCheck, PolicyCreds } from '../../../src/api/policy/check';
import { createEnforcer } from '../../../src/api/policy/enforcer';
import { Config } from '../../../src/conf/config';

const none = (): undefined => undefined;
const check = (text: string, creds: PolicyCreds, target: Record<string, unknown> = {}): boolean =>
  evaluate(parseCheck(text), { ...creds, ...target }, creds, none);

describe('policy check strings', () => {
  it('gives not > and > or precedence and honours parentheses', () => {
    const creds = { roles: ['reader'], system_scope: null };
    assert.equal(check('role:admin or role:reader and system_scope:all', creds), false);
    assert.equal(check('(role:admin or role:reader) and not system_scope:all', creds), true);
    assert.equal(check('role:admin or not role:reader', creds), false);
    assert.equal(check('', creds), true);
    assert.equal(check('!', creds), false);
    assert.equal(check('@', creds), true);
  });

  it('finds no target or credential through the prototype chain', () => {
    const creds = { roles: ['member'], project_id: 'p1' };
    for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      assert.equal(check(`project_id:%(${key})s`, creds), false, key);
      assert.equal(check(`${key}:%(node.owner)s`, creds, { 'node.owner': 'p1' }), false, key);
      assert.equal(check(`roles.${key}:%(node.owner)s`, creds, { 'node.owner': 'p1' }), false, key);
    }
  });

  it('matches roles case-insensitively and targets through %(...)s', () => {
    const creds = { roles: ['Member'], project_id: 'p1' };
    assert.equal(check('role:member and (project_id:%(node.owner)s or project_id:%(node.lessee)s)', creds,
      { 'node.owner': 'p2', 'node.lessee': 'p1' }), true);
    assert.equal(check('role:member and project_id:%(node.owner)s', creds, { 'node.owner': 'p2' }), false);
    // A target without the key fails the check, as oslo's KeyError does.
    assert.equal(check('project_id:%(node.owner)s', creds), false);
  });

  it('compares Python str() forms (None, True)', () => {
    assert.equal(check('project_domain_id:None', { project_domain_id: null }), true);
    assert.equal(check('is_public_api:True', { is_public_api: true }), true);
    assert.equal(check('is_public_api:True', { is_public_api: false }), false);
  });
});

describe('Ironic default policy', () => {
  const system = (roles: string[]): PolicyCreds => ({ roles, system_scope: 'all', project_id: null });
  const project = (roles: string[], id: string): PolicyCreds => ({ roles, system_scope: null, project_id: id, project_name: 'x' });

  it('ORs the deprecated rules unless enforce_new_defaults', () => {
    const legacy = createEnforcer(new Config());
    const strict = createEnforcer(new Config([], { oslo_policy: { enforce_new_defaults: true } }));
    // A project-scoped admin passes through the pre-RBAC rule:is_admin only.
    assert.equal(legacy.allowed('baremetal:node:create', project(['admin'], 'p')), true);
    assert.equal(strict.allowed('baremetal:node:create', project(['admin'], 'p')), false);
    assert.equal(strict.allowed('baremetal:node:create', system(['admin'])), true);
  });

  it('separates system readers, members and project owners', () => {
    const e = createEnforcer(new Config([], { oslo_policy: { enforce_new_defaults: true } }));
    assert.equal(e.allowed('baremetal:node:get', system(['reader'])), true);
    assert.equal(e.allowed('baremetal:node:update', system(['reader'])), false);
    assert.equal(e.allowed('baremetal:node:update', system(['member', 'reader'])), true);
    const owner = project(['member', 'reader'], 'p1');
    const target = { 'node.owner': 'p1', 'node.lessee': null };
    assert.equal(e.allowed('baremetal:node:get', owner, target), true);
    assert.equal(e.allowed('baremetal:node:get', owner, { 'node.owner': 'p2', 'node.lessee': null }), false);
    assert.equal(e.allowed('baremetal:node:set_power_state', owner, target), true);
    assert.equal(e.allowed('baremetal:node:list_all', owner), false);
    assert.equal(e.allowed('baremetal:node:list', owner), true);
    assert.throws(() => e.authorize('baremetal:driver:get', owner),
      { message: 'Access was denied to the following resource: baremetal:driver:get' });
  });

  it('has 29.0.5\'s firmware and virtual media rules: readers see, members (owner or lessee) attach and detach', () => {
    const e = createEnforcer(new Config([], { oslo_policy: { enforce_new_defaults: true } }));
    const target = { 'node.owner': 'p1', 'node.lessee': 'p2' };
    const lesseeReader = project(['reader'], 'p2');
    const lesseeMember = project(['member', 'reader'], 'p2');
    for (const rule of ['baremetal:node:firmware:get', 'baremetal:node:vmedia:get']) {
      assert.equal(e.allowed(rule, lesseeReader, target), true, rule);
      assert.equal(e.allowed(rule, project(['reader'], 'p3'), target), false, rule);
      assert.equal(e.allowed(rule, system(['reader'])), true, rule);
    }
    for (const rule of ['baremetal:node:vmedia:attach', 'baremetal:node:vmedia:detach']) {
      assert.equal(e.allowed(rule, lesseeReader, target), false, rule);
      assert.equal(e.allowed(rule, lesseeMember, target), true, rule);
      assert.equal(e.allowed(rule, system(['reader'])), false, rule);
      assert.equal(e.allowed(rule, system(['member'])), true, rule);
    }
  });

  it('enforces scope types only with enforce_scope', () => {
    const scoped = createEnforcer(new Config([], { oslo_policy: { enforce_scope: true, enforce_new_defaults: true } }));
    // Drivers are system-scoped: a project admin token is out of scope.
    assert.equal(scoped.allowed('baremetal:driver:get', project(['admin', 'reader'], 'p')), false);
    assert.equal(scoped.allowed('baremetal:driver:get', system(['reader'])), true);
  });
});

describe('policy file overrides', () => {
  it('reads policy.yaml next to the config file and replaces the default (without its deprecated fallback)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policy-file-'));
    try {
      const confFile = path.join(dir, 'ironic.conf');
      fs.writeFileSync(confFile, '[DEFAULT]\nauth_strategy = keystone\n');
      fs.writeFileSync(path.join(dir, 'policy.yaml'), [
        '# generated sample, commented rules are ignored',
        '#"baremetal:node:delete": "rule:is_admin"',
        '"baremetal:node:create": "role:reader"',
        "'baremetal:node:get': 'role:auditor'  # trailing comment",
        'custom_rule: "role:x"',
      ].join('\n'));
      const e = createEnforcer(new Config([confFile]));
      assert.equal(e.allowed('baremetal:node:create', { roles: ['reader'], system_scope: null, project_id: 'p' }), true);
      // The override drops the pre-RBAC `rule:is_admin or rule:is_observer` fallback too.
      assert.equal(e.allowed('baremetal:node:get', { roles: ['admin'], system_scope: 'all', project_id: null }, { 'node.owner': null, 'node.lessee': null }), false);
      assert.equal(e.allowed('baremetal:node:get', { roles: ['auditor'] }), true);
      assert.equal(e.allowed('custom_rule', { roles: ['x'] }), true);
      fs.writeFileSync(path.join(dir, 'policy.yaml'), '"a": |\n  role:x\n');
      assert.throws(() => createEnforcer(new Config([confFile])), /multi-line YAML/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('applies each policy.d file in name order on top of policy.yaml, skipping dot files', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policy-dirs-'));
    try {
      const confFile = path.join(dir, 'ironic.conf');
      fs.writeFileSync(confFile, '[DEFAULT]\nauth_strategy = keystone\n');
      fs.writeFileSync(path.join(dir, 'policy.yaml'), '"baremetal:node:create": "role:one"\n"baremetal:port:create": "role:one"\n');
      fs.mkdirSync(path.join(dir, 'policy.d'));
      fs.writeFileSync(path.join(dir, 'policy.d', '20-later.yaml'), '"baremetal:node:create": "role:three"\n');
      fs.writeFileSync(path.join(dir, 'policy.d', '10-first.json'), '{"baremetal:node:create": "role:two", "baremetal:chassis:create": "role:two"}');
      fs.writeFileSync(path.join(dir, 'policy.d', '.hidden.yaml'), '"baremetal:port:create": "role:hidden"\n');
      const e = createEnforcer(new Config([confFile]));
      const as = (role: string) => ({ roles: [role], system_scope: 'all', project_id: null });
      assert.equal(e.allowed('baremetal:node:create', as('three')), true);
      assert.equal(e.allowed('baremetal:node:create', as('two')), false);
      assert.equal(e.allowed('baremetal:chassis:create', as('two')), true);
      assert.equal(e.allowed('baremetal:port:create', as('one')), true);
      assert.equal(e.allowed('baremetal:port:create', as('hidden')), false);
      // [oslo_policy]policy_dirs names other directories; an absent one is skipped.
      fs.appendFileSync(confFile, '[oslo_policy]\npolicy_dirs = missing.d\n');
      assert.equal(createEnforcer(new Config([confFile])).allowed('baremetal:node:create', as('one')), true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
