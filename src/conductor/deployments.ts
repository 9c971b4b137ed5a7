/**
 * Deployment (conductor/deployments.py): validation, configdrive storage (instance_info or Swift),
 * deploy steps from the driver, deploy templates matching instance traits and the request,
 * then `done` -> active (or `wait` when a step continues asynchronously).
 */
import {
  ConfigInvalid, IronicError, InstanceDeployFailure, SwiftOperationError, InvalidParameterValue, InvalidStateRequested, NodeInMaintenance, NodeProtected,
  withCode,
} from '../common/errors';
import { log } from '../common/log';
import * as states from '../common/states';
import { templatesByNames } from '../db/repositories/conductor-trait-queries';
import type { DeployRequest, Step } from '../rpc/conductor-api';
import { DeploymentFailedState } from '../drivers/deploy/deployment-error';
import { storeConfigdrive } from './configdrive-store';
import { deployingErrorHandler, errorText, provisioningErrorHandler, setFailedState, wipeDeployInternalInfo } from './error-handlers';
import { isActionable } from './fsm';
import { pyRepr } from '../common/python/repr';
import { validateDeployStepsAndTemplates, validateInstanceInfoTraits } from './deploy-validation';
import { updateImageType } from './image-type';
import { runSteps, type StepFlow } from './step-runner';
import { driverSteps, NodeStep, sortSteps, validateUserSteps } from './steps';
import type { Task } from './task';
import type { TaskManager } from './task-manager';

function validateNodeForDeploy(task: Task, event: string): void {
  if (task.node.maintenance) throw new NodeInMaintenance({ op: 'provisioning', node: task.node.uuid });
  if (event === 'rebuild' && task.node.protected) throw new NodeProtected({ node: task.node.uuid });
  if (!isActionable(task.node.provision_state, event)) {
    throw new InvalidStateRequested({ action: event, node: task.node.uuid, state: task.node.provision_state });
  }
}

/** Steps requested through deploy templates whose names are in instance_info.traits. */
async function templateSteps(task: Task): Promise<Step[]> {
  const traits = (task.node.instance_info ?? {}).traits;
  const names = Array.isArray(traits) ? traits.map(String) : [];
  const templates = await templatesByNames(task.ctx.db, names);
  return templates.flatMap((t) => t.steps.map((s) => ({ interface: s.interface, step: s.step, args: s.args, priority: s.priority })));
}

/** Driver steps with priority overridden by templates/user steps, enabled ones sorted. */
async function deploymentSteps(task: Task, userSteps: Step[]): Promise<NodeStep[]> {
  const requested = [...await templateSteps(task), ...userSteps];
  const validated = validateUserSteps(task, 'deploy', requested, { skipMissing: true });
  const byId = new Map<string, NodeStep>();
  // A driver step is stored as the driver reports it ({step, priority, argsinfo, interface}): the
  // node's deploy_step shows that while it runs; only user and template steps carry args.
  for (const s of driverSteps(task, 'deploy')) byId.set(`${s.interface}.${s.step}`, { ...s });
  for (const s of validated) byId.set(`${s.interface}.${s.step}`, s);
  return sortSteps([...byId.values()].filter((s) => s.priority > 0));
}

export async function doNodeDeploy(tasks: TaskManager, nodeId: string, req: DeployRequest): Promise<void> {
  const event = req.rebuild ? 'rebuild' : 'deploy';
  await tasks.run(nodeId, { purpose: 'node deployment' }, async (task) => {
    validateNodeForDeploy(task, event);
    // Saved even when the validation below refuses the deployment, as in Ironic.
    if (updateImageType(task)) await task.saveNode();
    try {
      await task.driver.power.validate(task);
      await task.driver.deploy.validate(task);
      await validateInstanceInfoTraits(task);
      await validateDeployStepsAndTemplates(task, req.deploySteps, true);
    } catch (err) {
      if (!(err instanceof InvalidParameterValue)) throw err;
      // Ironic passes code=e.code: a refused validation is the client's 400, not a 500.
      throw withCode(new InstanceDeployFailure(`Failed to validate deploy or power info for node ${task.node.uuid}: ${err.message}`),
        err.code);
    }
    task.extraData = req.extraData;
    await task.processEvent(event, {
      spawn: (t) => runDeploy(t, req),
      errHandler: provisioningErrorHandler,
    });
  });
}

async function runDeploy(task: Task, req: DeployRequest): Promise<void> {
  const node = task.node;
  wipeDeployInternalInfo(task);
  // Python's `if configdrive:` skips '' and {} as well.
  if (req.configdrive && (typeof req.configdrive === 'string' || Object.keys(req.configdrive).length)) {
    try {
      await storeConfigdrive(task, req.configdrive);
    } catch (err) {
      await configdriveFailed(task, err);
      return;
    }
  }
  if (req.deploySteps?.length) {
    node.driver_internal_info = { ...(node.driver_internal_info ?? {}), user_deploy_steps: req.deploySteps };
  }
  await task.saveNode();
  try {
    await task.driver.deploy.prepare(task);
  } catch (err) {
    const userMsg = err instanceof IronicError
      ? `Failed to prepare to deploy: ${errorText(err)}` : `Failed to prepare to deploy. Exception: ${errorText(err)}`;
    await deployingErrorHandler(task, `Error while preparing to deploy to node ${node.uuid}: ${errorText(err)}`, userMsg, false);
    return;
  }
  let steps: NodeStep[];
  try {
    steps = await deploymentSteps(task, req.deploySteps ?? []);
  } catch (err) {
    await deployingErrorHandler(task, `Error while getting deploy steps; cannot deploy to node ${node.uuid}: ${errorText(err)}`,
      `Cannot get deploy steps; failed to deploy: ${errorText(err)}`);
    return;
  }
  if (steps.length === 0) {
    await deployingErrorHandler(task, `Error while getting deploy steps: no steps returned for node ${node.uuid}`,
      'No deploy steps returned by the driver');
    return;
  }
  node.driver_internal_info = { ...(node.driver_internal_info ?? {}), deploy_steps: steps, deploy_step_index: null };
  node.deploy_step = {};
  node.conductor_affinity = task.ctx.conductorId;
  await task.saveNode();
  await continueDeploySteps(task, 0);
}

/** do_node_deploy's handling of a configdrive that could not be stored: deploy failed, nothing to clean up. */
async function configdriveFailed(task: Task, err: unknown): Promise<void> {
  const uuid = task.node.uuid;
  if (err instanceof SwiftOperationError || err instanceof ConfigInvalid) {
    await deployingErrorHandler(task, `Error while uploading the configdrive for ${uuid} to Swift`,
      `Failed to upload the configdrive to Swift: ${errorText(err)}`, false);
  } else {
    await deployingErrorHandler(task, `Unexpected error while preparing the configdrive for node ${uuid}: ${errorText(err)}`,
      `Failed to prepare the configdrive. Exception: ${errorText(err)}`, false);
  }
}

/** validate_deploy_steps: the final step list, now that the agent's in-band steps are cached. */
export async function revalidateDeploySteps(task: Task): Promise<void> {
  const node = task.node;
  const steps = await deploymentSteps(task, ((node.driver_internal_info ?? {}).user_deploy_steps ?? []) as Step[]);
  node.driver_internal_info = { ...(node.driver_internal_info ?? {}), deploy_steps: steps, steps_validated: true };
  await task.saveNode();
}

/** do_next_deploy_step's reactions: the deploy error handler, `wait`, and `done` -> active. */
const DEPLOY_FLOW: StepFlow = {
  kind: 'deploy',
  waitState: states.DEPLOYWAIT,
  async failed(task, step, err) {
    // The step failed the deployment as Ironic's driver does itself (set_failed_state).
    if (err instanceof DeploymentFailedState) {
      if (task.node.provision_state !== states.DEPLOYFAIL) await setFailedState(task, err.message);
      return;
    }
    const id = `${step.interface}.${step.step}`;
    const logmsg = `Node ${task.node.uuid} failed deploy step ${pyRepr(task.node.deploy_step)}: ${errorText(err)}`;
    const userMsg = err instanceof IronicError
      ? `Deploy step ${id} failed: ${errorText(err)}.`
      : `Deploy step ${id} failed with ${err instanceof Error ? err.constructor.name : 'Exception'}: ${errorText(err)}.`;
    if (task.node.provision_state !== states.DEPLOYFAIL) await deployingErrorHandler(task, logmsg, userMsg);
  },
  waiting: (task) => task.processEvent('wait'),
  async unexpected(task, step, result) {
    await deployingErrorHandler(task, `While executing deploy step ${pyRepr(step)} on node ${task.node.uuid}, step returned ` +
      `unexpected state: ${result}`, `Failed to deploy: ${pyRepr(task.node.deploy_step)}`);
  },
  // validate_deploy_steps once the agent's steps are known without a heartbeat (a fast-track
  // `deploy` step refreshed them): the list is computed again with them.
  async stepDone(task, step) {
    const info = task.node.driver_internal_info ?? {};
    if (info.steps_validated || !info.agent_cached_deploy_steps) return true;
    try {
      await revalidateDeploySteps(task);
    } catch (err) {
      await this.failed(task, step, err);
      return false;
    }
    return true;
  },
  async finished(task) {
    const node = task.node;
    node.deploy_step = null;
    wipeDeployInternalInfo(task);
    await task.saveNode();
    await task.processEvent('done');
    log.info(`Successfully deployed node ${node.uuid} with instance ${node.instance_uuid}.`);
  },
};

/** do_next_deploy_step: runs steps from `index` (none when null); pauses on a wait state; finishes with `done`. */
export async function continueDeploySteps(task: Task, index: number | null): Promise<void> {
  await runSteps(task, DEPLOY_FLOW, index);
}
