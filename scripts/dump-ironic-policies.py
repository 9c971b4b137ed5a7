"""Dump Ironic's in-code policy defaults (names, check strings, scope types, deprecated
fallbacks) from Debian's installed Ironic into src/api/policy/ironic-policies.json.
Facts only: the rules are data, evaluated by src/api/policy/check.ts."""
import json
import sys

from ironic.common import policy

rules = []
for rule in policy.list_policies():
    deprecated = getattr(rule, 'deprecated_rule', None)
    if isinstance(deprecated, list):  # a few RuleDefaults carry one in a list
        deprecated = deprecated[0] if deprecated else None
    rules.append({
        'name': rule.name,
        'check': rule.check_str,
        'scope_types': list(getattr(rule, 'scope_types', None) or []),
        'deprecated': deprecated.check_str if deprecated is not None else None,
    })
json.dump(rules, sys.stdout, indent=1)
sys.stdout.write('\n')
