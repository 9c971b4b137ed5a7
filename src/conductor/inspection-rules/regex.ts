/**
 * Python `re` patterns as the matches/contains operators use them: `re.match` (anchored at the
 * start, and Ironic appends `$`) or `re.search`. The common syntax is shared with JavaScript; a
 * pattern JavaScript refuses is the operator's "invalid regular expression".
 */
import { InspectionRuleExecutionFailure } from '../../common/errors';

export function pythonRegex(pattern: string, anchored: boolean): RegExp {
  const source = anchored ? `^(?:${pattern.endsWith('$') ? pattern : `${pattern}$`})` : pattern;
  try {
    return new RegExp(source, 'u');
  } catch (err) {
    throw new InspectionRuleExecutionFailure({ reason: `invalid regular expression: ${(err as Error).message}` });
  }
}
