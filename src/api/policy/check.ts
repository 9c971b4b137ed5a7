/**
 * oslo.policy check strings: `role:x`, `rule:name`, `key:value` / `key:%(target.field)s`, `@`, `!`,
 * combined with `not`, `and`, `or` (that precedence) and parentheses. Tokenized as oslo does:
 * split on whitespace, then leading `(` and trailing `)` of each word are parentheses.
 */
import { pyStr } from '../../common/python/str';

/** The caller's credentials as Ironic's RequestContext.to_policy_values() gives them. */
export type PolicyCreds = Record<string, unknown>;
/** The target of a check: the credentials plus `node.owner`, `node.lessee`, ... */
export type PolicyTarget = Record<string, unknown>;

export type Check =
  | { kind: 'const'; value: boolean }
  | { kind: 'not'; check: Check }
  | { kind: 'and' | 'or'; checks: Check[] }
  | { kind: 'rule'; name: string }
  | { kind: 'role'; role: string }
  | { kind: 'generic'; key: string; match: string };

type RuleLookup = (name: string) => Check | undefined;

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const opened = word.length - word.replace(/^\(+/, '').length;
    let core = word.slice(opened);
    let closed = 0;
    // `%(node.owner)s)` keeps its own parenthesis: only the trailing run of `)` is syntax.
    while (core.endsWith(')') && !/%\([^)]*\)$/.test(core)) {
      core = core.slice(0, -1);
      closed += 1;
    }
    for (let i = 0; i < opened; i += 1) tokens.push('(');
    if (core) tokens.push(core);
    for (let i = 0; i < closed; i += 1) tokens.push(')');
  }
  return tokens;
}

function atom(word: string): Check {
  if (word === '@') return { kind: 'const', value: true };
  if (word === '!') return { kind: 'const', value: false };
  const colon = word.indexOf(':');
  // oslo treats a malformed check as one that never passes.
  if (colon < 0) return { kind: 'const', value: false };
  const key = word.slice(0, colon);
  const match = word.slice(colon + 1);
  if (key === 'rule') return { kind: 'rule', name: match };
  if (key === 'role') return { kind: 'role', role: match.toLowerCase() };
  return { kind: 'generic', key, match };
}

/** Parses a check string; an empty one always passes (oslo's TrueCheck). */
export function parseCheck(text: string): Check {
  const tokens = tokenize(text);
  if (tokens.length === 0) return { kind: 'const', value: true };
  let pos = 0;
  const peek = (): string | undefined => tokens[pos];
  const orExpr = (): Check => {
    const checks = [andExpr()];
    while (peek()?.toLowerCase() === 'or') { pos += 1; checks.push(andExpr()); }
    return checks.length === 1 ? checks[0] : { kind: 'or', checks };
  };
  const andExpr = (): Check => {
    const checks = [notExpr()];
    while (peek()?.toLowerCase() === 'and') { pos += 1; checks.push(notExpr()); }
    return checks.length === 1 ? checks[0] : { kind: 'and', checks };
  };
  const notExpr = (): Check => {
    if (peek()?.toLowerCase() === 'not') { pos += 1; return { kind: 'not', check: notExpr() }; }
    const word = tokens[pos++];
    if (word === '(') {
      const inner = orExpr();
      if (tokens[pos] === ')') pos += 1;
      return inner;
    }
    return word === undefined ? { kind: 'const', value: false } : atom(word);
  };
  const result = orExpr();
  // Unparsable leftovers make the whole rule fail closed, as oslo's parser does.
  return pos === tokens.length ? result : { kind: 'const', value: false };
}

/** `%(name)s` from the target; a missing key makes the check fail (oslo catches the KeyError). */
function substitute(match: string, target: PolicyTarget): string | undefined {
  let missing = false;
  const out = match.replace(/%\(([^)]+)\)s/g, (_whole, name: string) => {
    if (!Object.hasOwn(target, name)) { missing = true; return ''; }
    return pyStr(target[name]);
  });
  return missing ? undefined : out;
}

function credValue(creds: PolicyCreds, key: string): { found: boolean; value: unknown } {
  if (Object.hasOwn(creds, key)) return { found: true, value: creds[key] };
  let current: unknown = creds;
  for (const segment of key.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, segment)) return { found: false, value: undefined };
    current = (current as Record<string, unknown>)[segment];
  }
  return { found: true, value: current };
}

function genericCheck(check: { key: string; match: string }, target: PolicyTarget, creds: PolicyCreds): boolean {
  const match = substitute(check.match, target);
  if (match === undefined) return false;
  // A literal on the left (`True:%(x)s`, `'a':%(b)s`) compares against the match itself.
  if (['True', 'False', 'None'].includes(check.key) || /^'.*'$|^\d+$/.test(check.key)) {
    return match === check.key.replace(/^'(.*)'$/, '$1');
  }
  const left = credValue(creds, check.key);
  return left.found && match === pyStr(left.value);
}

export function evaluate(check: Check, target: PolicyTarget, creds: PolicyCreds, rules: RuleLookup): boolean {
  switch (check.kind) {
    case 'const': return check.value;
    case 'not': return !evaluate(check.check, target, creds, rules);
    case 'and': return check.checks.every((c) => evaluate(c, target, creds, rules));
    case 'or': return check.checks.some((c) => evaluate(c, target, creds, rules));
    case 'role': {
      const roles = Array.isArray(creds.roles) ? creds.roles.map((r) => String(r).toLowerCase()) : [];
      return roles.includes(check.role);
    }
    case 'rule': {
      const rule = rules(check.name);
      return rule !== undefined && evaluate(rule, target, creds, rules);
    }
    case 'generic': return genericCheck(check, target, creds);
  }
}
