/**
 * Built-in inspection rules (engine.get_built_in_rules): read from [inspection_rules]built_in_rules
 * on every run, each checked like an API rule but allowed any priority. A broken file fails the
 * inspection.
 *
 * Ironic 2025.1 checks the rule dict, `scope` and `built_in` included, against the API schema
 * (which forbids both, and negative priorities), so every built-in rule fails there; here the
 * rule's own fields are checked, any priority allowed as validate_rule intends.
 */
import { readFileSync } from 'node:fs';
import { Invalid } from '../../common/errors';
import { validationErrorText, type Schema } from '../../common/jsonschema';
import { log } from '../../common/log';
import { INSPECTION_RULE_SCHEMA, validateRule, type RuleDict } from '../../common/inspection-rules/validation';
import type { Config } from '../../conf/config';
import { parseYaml } from '../../common/yaml-block';

/** The API's schema but for the priority's minimum: built-in rules may run below user ones. */
const BUILT_IN_SCHEMA: Schema = {
  ...INSPECTION_RULE_SCHEMA,
  properties: { ...INSPECTION_RULE_SCHEMA.properties, priority: { type: 'integer' } },
};

function field<T>(data: Record<string, unknown>, key: string, fallback: T): T | unknown {
  return Object.hasOwn(data, key) ? data[key] : fallback;
}

export function builtInRules(conf: Config): RuleDict[] {
  const file = conf.optStr('inspection_rules', 'built_in_rules');
  if (!file) return [];
  let data: unknown;
  try {
    data = parseYaml(readFileSync(file, 'utf8'));
  } catch (err) {
    log.error(`Error loading built-in rules from ${file}: ${err instanceof Error ? err.message : String(err)}`);
    throw err;
  }
  return ((data ?? []) as Record<string, unknown>[]).map((raw) => {
    const rule = {
      uuid: field(raw, 'uuid', null),
      priority: field(raw, 'priority', 0),
      description: field(raw, 'description', null),
      scope: field(raw, 'scope', null),
      sensitive: field(raw, 'sensitive', false),
      phase: field(raw, 'phase', 'main'),
      actions: field(raw, 'actions', []),
      conditions: field(raw, 'conditions', []),
      built_in: true,
    } as RuleDict;
    try {
      const { scope: _scope, built_in: _builtIn, ...own } = rule;
      const schemaError = validationErrorText(own, BUILT_IN_SCHEMA);
      if (schemaError !== null) throw new Invalid(`Validation failed for inspection rule: ${schemaError}`);
      validateRule(rule);
    } catch (err) {
      log.error(`Error parsing built-in rule: ${err instanceof Error ? err.message : String(err)}`);
      throw err;
    }
    return rule;
  });
}
