/**
 * Typed failures of the compute shim. IronicApiError carries what Ironic said (status + faultstring
 * decoded from the `error_message` wrapper); the others are the shim's verdicts, named and worded
 * after the Nova exceptions the ironic virt driver raises in the same places.
 */
export class ComputeError extends Error {
  override readonly name: string = 'ComputeError';
}

export class IronicApiError extends ComputeError {
  override readonly name: string = 'IronicApiError';
  constructor(readonly status: number, readonly faultstring: string, readonly method: string, readonly path: string) {
    super(`${method} ${path} -> HTTP ${status}: ${faultstring}`);
  }
}

/** prepare_for_spawn on a node that is used or not schedulable (Nova reschedules elsewhere). */
export class ComputeResourcesUnavailable extends ComputeError {
  override readonly name = 'ComputeResourcesUnavailable';
  constructor(readonly node: string) {
    super(`Insufficient compute resources: Chosen ironic node ${node} is not available.`);
  }
}

/** Nova's InstanceDeployFailure: the reservation, the deploy request or the deployment failed. */
export class InstanceDeployFailure extends ComputeError {
  override readonly name: string = 'InstanceDeployFailure';
}

/** 409 on the instance_uuid PATCH (_set_instance_id): another instance got the node first. */
export class NodeAlreadyAssociatedError extends InstanceDeployFailure {
  override readonly name = 'InstanceDeployFailure';
  constructor(readonly node: string, readonly instanceUuid: string, readonly faultstring: string) {
    super(`Failed to reserve node ${node} when provisioning the instance ${instanceUuid}`);
  }
}

/** The node reached `deploy failed`; lastError is node.last_error. */
export class DeployFailedError extends InstanceDeployFailure {
  override readonly name = 'InstanceDeployFailure';
  constructor(readonly node: string, readonly lastError: string | null, message: string) {
    super(message);
  }
}

/** Nova's ValidationError: GET /validate said no for deploy, power or storage. */
export class ValidationFailedError extends ComputeError {
  override readonly name = 'ValidationError';
}

/** No node carries the instance (or Ironic is tearing it down while we wait): InstanceNotFound. */
export class InstanceGoneError extends ComputeError {
  override readonly name = 'InstanceNotFound';
}

export function instanceNotFound(instanceUuid: string): InstanceGoneError {
  return new InstanceGoneError(`Instance ${instanceUuid} could not be found.`);
}

/** Nova's VirtualInterfacePlugException: Ironic refused a VIF attachment. */
export class VifPlugError extends ComputeError {
  override readonly name = 'VirtualInterfacePlugException';
}

/** Nova's ConsoleTypeUnavailable / ConsoleNotAvailable. */
export class ConsoleUnavailableError extends ComputeError {
  override readonly name = 'ConsoleNotAvailable';
}

export class WaitTimeoutError extends ComputeError {
  override readonly name = 'WaitTimeoutError';
}

/** Nova's InstanceRescueFailure / InstanceUnRescueFailure. */
export class RescueFailedError extends ComputeError {
  override readonly name = 'InstanceRescueFailure';
  constructor(reason: string) {
    super(`Failed to move instance to rescue mode: ${reason}`);
  }
}
export class UnrescueFailedError extends ComputeError {
  override readonly name = 'InstanceUnRescueFailure';
  constructor(reason: string) {
    super(`Failed to unrescue instance: ${reason}`);
  }
}
