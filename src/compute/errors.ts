/**
 * Typed failures of the compute shim. IronicApiError carries what Ironic said (status + faultstring
 * decoded from the `error_message` wrapper); the others are the shim's own verdicts, named after the
 * Nova exceptions they stand in for.
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

/** 409 on the instance_uuid PATCH: Nova's NodeAssociated / InstanceDeployFailure. */
export class NodeAlreadyAssociatedError extends ComputeError {
  override readonly name = 'NodeAlreadyAssociatedError';
  constructor(readonly node: string, readonly faultstring: string) {
    super(`node ${node} already has an instance: ${faultstring}`);
  }
}

export class ValidationFailedError extends ComputeError {
  override readonly name = 'ValidationFailedError';
}

/** The node reached `deploy failed` (or another failure state); lastError is node.last_error. */
export class DeployFailedError extends ComputeError {
  override readonly name = 'DeployFailedError';
  constructor(readonly node: string, readonly lastError: string | null, message?: string) {
    super(message ?? `Failed to provision instance on node ${node}: ${lastError}`);
  }
}

/** Ironic is tearing the instance down (or already has) while we wait for it: InstanceNotFound. */
export class InstanceGoneError extends ComputeError {
  override readonly name = 'InstanceGoneError';
}

export class WaitTimeoutError extends ComputeError {
  override readonly name = 'WaitTimeoutError';
}

/** Nova's InstanceRescueFailure / InstanceUnRescueFailure. */
export class RescueFailedError extends ComputeError {
  override readonly name = 'RescueFailedError';
}
export class UnrescueFailedError extends ComputeError {
  override readonly name = 'UnrescueFailedError';
}
