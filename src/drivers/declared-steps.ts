/**
 * An interface's steps declared once (Ironic's @clean_step/@deploy_step/@service_step decorators):
 * each declaration carries its listing data and its run function, and both the listing
 * (BaseInterface.get_*_steps) and the execution (BaseInterface.execute_*_step) derive from it.
 */
import { InvalidParameterValue, type IronicError } from '../common/errors';
import type {
  BaseInterface, DriverTask, InterfaceKind, JsonObject, StepDecl, StepInfo, StepKind, StepResult,
} from './base';

/** The step's body: nothing when done, or a wait state when it finishes asynchronously. */
type StepRun = (task: DriverTask, args: JsonObject) => Promise<StepResult>;

/** A step with its run function: what an interface declares. */
export interface DeclaredStep extends StepDecl {
  run: StepRun;
}

/** A step the declarations do not name, run if the interface knows it at run time (an agent's in-band steps). */
export type UndeclaredStep = (task: DriverTask, step: string) => StepRun | null;

/** The error for a step an interface does not have. */
export function noSuchStep(iface: string, step: string): IronicError {
  return new InvalidParameterValue({ err: `Interface ${iface} has no step ${step}` });
}

/** The core `deploy` deploy step (priority 100) every deploy interface has. */
export function coreDeployStep(run: StepRun): DeclaredStep {
  return { step: 'deploy', kinds: ['deploy'], priority: 100, run };
}

/**
 * The `steps` and `executeStep` members of an interface, both from `declared`. Step names come
 * from API bodies, so they are looked up in a Map, never on a plain object.
 */
export function declareSteps(kind: InterfaceKind, declared: readonly DeclaredStep[], undeclared?: UndeclaredStep)
  : Required<Pick<BaseInterface, 'steps' | 'executeStep'>> {
  const byName = new Map(declared.map((d) => [d.step, d.run]));
  return {
    steps: declared,
    async executeStep(task, step, args) {
      const run = byName.get(step) ?? undeclared?.(task, step);
      if (!run) throw noSuchStep(kind, step);
      return run(task, args);
    },
  };
}

/** The steps of `kind` an interface declares, in Ironic's reporting shape (get_clean_steps & co). */
export function stepsOf(iface: BaseInterface, kind: StepKind): StepInfo[] {
  return (iface.steps ?? []).filter((d) => d.kinds.includes(kind)).map((d) => {
    const info: StepInfo = { step: d.step, priority: d.priority, argsinfo: d.argsinfo ?? null, interface: iface.kind };
    if (kind === 'clean' || kind === 'service') {
      info.abortable = d.abortable ?? false;
      info.requires_ramdisk = d.requiresRamdisk ?? true;
    }
    return info;
  });
}
