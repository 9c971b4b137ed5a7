/**
 * Checks run before a deployment and by node validation (conductor/utils.py
 * validate_instance_info_traits, conductor/steps.py validate_user_deploy_steps_and_templates):
 * instance traits must be node traits; steps from matching deploy templates and from the request
 * must fit the driver's deploy steps. Each source gets Ironic's own message prefix.
 */
import { InvalidParameterValue } from '../common/errors';
import { templatesByNames } from '../db/repositories/conductor-trait-queries';
import { traitNames } from '../db/repositories/node-traits';
import type { JsonObject, Step } from '../rpc/conductor-api';
import { validateUserSteps } from './steps';
import type { Task } from './task';

function instanceTraits(task: Task): unknown {
  return (task.node.instance_info ?? {}).traits;
}

export async function validateInstanceInfoTraits(task: Task): Promise<void> {
  const traits = instanceTraits(task);
  // Python truthiness: a missing, empty or falsy value means "no instance traits".
  if (!traits || (Array.isArray(traits) && traits.length === 0)) return;
  if (!Array.isArray(traits) || !traits.every((t) => typeof t === 'string')) {
    throw new InvalidParameterValue({
      err: `Error parsing traits from Node ${task.node.uuid} instance_info field. A list of strings is expected.`,
    });
  }
  const have = new Set(await traitNames(task.ctx.db, task.node.id));
  const missing = [...new Set(traits as string[])].filter((t) => !have.has(t));
  if (missing.length) {
    throw new InvalidParameterValue({
      err: `Cannot specify instance traits that are not also set on the node. Node ${task.node.uuid} is missing traits ${missing.join(', ')}`,
    });
  }
}

/** deploySteps: the request's steps; without them, the ones stored from the request on the node. */
export async function validateDeployStepsAndTemplates(task: Task, deploySteps: Step[] | undefined,
  skipMissing: boolean): Promise<void> {
  const traits = instanceTraits(task);
  const names = Array.isArray(traits) && traits.length ? traits.map(String) : [];
  const templates = await templatesByNames(task.ctx.db, names);
  if (templates.length) {
    const steps: Step[] = templates.flatMap((t) => t.steps.map((s) => ({
      interface: s.interface, step: s.step, args: s.args as JsonObject, priority: s.priority,
    })));
    validateUserSteps(task, 'deploy', steps, {
      skipMissing,
      errorPrefix: 'Validation of deploy steps from deploy templates matching this node\'s instance traits failed. ' +
        `Matching deploy templates: ${templates.map((t) => t.name).join(',')}. Errors: `,
    });
  }
  const stored = (task.node.driver_internal_info ?? {}).user_deploy_steps;
  const user = deploySteps?.length ? deploySteps : (Array.isArray(stored) ? stored as unknown as Step[] : []);
  if (user.length) {
    validateUserSteps(task, 'deploy', user, {
      skipMissing, errorPrefix: 'Validation of deploy steps from "deploy steps" argument failed.',
    });
  }
}
