/**
 * [api]disallow_clean_steps / disallow_deploy_steps / disallow_service_steps (Ironic 2025.1 as
 * Debian ships it): steps the operator forbids, named "interface.step". User steps naming one are
 * refused; lists built otherwise (automated cleaning, validated lists) leave them out.
 */
import type { Config } from '../conf/config';
import { StepNotAllowed } from './errors';

type StepKind = 'clean' | 'deploy' | 'service';

interface NamedStep {
  interface?: unknown;
  step?: unknown;
}

const OPTION = { clean: 'disallow_clean_steps', deploy: 'disallow_deploy_steps', service: 'disallow_service_steps' } as const;

const stepId = (s: NamedStep): string => `${String(s.interface)}.${String(s.step)}`;

/** check_disallowed_steps(raise_on_disallowed=True): the first forbidden step refuses the request. */
export function refuseDisallowedSteps(conf: Config, steps: readonly NamedStep[], kind: StepKind): void {
  const disallowed = new Set(conf.list('api', OPTION[kind]));
  const found = steps.find((s) => disallowed.has(stepId(s)));
  if (found !== undefined) throw new StepNotAllowed({ step: stepId(found), step_type: kind });
}

/** check_disallowed_steps(raise_on_disallowed=False): the steps left once the forbidden ones are dropped. */
export function withoutDisallowedSteps<T extends NamedStep>(conf: Config, steps: T[], kind: StepKind): T[] {
  const disallowed = new Set(conf.list('api', OPTION[kind]));
  return steps.filter((s) => !disallowed.has(stepId(s)));
}
