/**
 * The row order Ironic leaves when a deploy template's or runbook's steps are replaced
 * (_update_deploy_template_steps, _update_runbook_steps): steps equal to a stored one keep their
 * rows, new ones are inserted after them sorted by (interface, step, args as sorted JSON, rank),
 * the rank being a template step's priority or a runbook step's order.
 */
interface StepRow {
  interface: string;
  step: string;
  args: Record<string, unknown>;
}

/** json.dumps(value, sort_keys=True). */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}: ${sortedJson((value as Record<string, unknown>)[k])}`).join(', ')}}`;
  }
  return JSON.stringify(value);
}

function compareSteps<T extends StepRow>(a: T, b: T, rank: (s: T) => number): number {
  const ka = [a.interface, a.step, sortedJson(a.args), rank(a)];
  const kb = [b.interface, b.step, sortedJson(b.args), rank(b)];
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
  return 0;
}

/** `wanted` in the order Ironic's rows end up in, given the `current` rows (in id order). */
export function ironicStepOrder<T extends StepRow>(current: T[], wanted: T[], rank: (s: T) => number): T[] {
  const remaining = [...wanted];
  const kept: T[] = [];
  for (const c of current) {
    const i = remaining.findIndex((w) => compareSteps(w, c, rank) === 0);
    if (i >= 0) kept.push(...remaining.splice(i, 1));
  }
  return [...kept, ...remaining.sort((a, b) => compareSteps(a, b, rank))];
}
