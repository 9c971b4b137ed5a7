/**
 * agent_base.log_and_raise_deployment_error: a deploy step that fails after the agent's work
 * (tear_down_agent, switch_to_tenant_network) fails the deployment through set_failed_state, not
 * the step runner's generic handler: no deploy clean up (the node keeps the ports it had, which
 * undeploy's tear down removes), a power off, and last_error the message as it stands.
 */
import { InstanceDeployFailure } from '../../common/errors';
import type { DriverTask } from '../base';

/** The failure the conductor meets with set_failed_state; the message is last_error, word for word. */
export class DeploymentFailedState extends InstanceDeployFailure {}

/** The message prefixed with the running deploy step, as Ironic does where it does not name it already. */
export function deploymentError(task: DriverTask, msg: string): DeploymentFailedState {
  const step = task.node.deploy_step;
  const id = step && typeof step.interface === 'string' && typeof step.step === 'string' ? `${step.interface}.${step.step}` : null;
  return new DeploymentFailedState(id && !msg.includes(id) ? `Deploy step ${id} failed: ${msg}` : msg);
}
