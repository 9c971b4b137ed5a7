/**
 * Ironic's provision and power state strings (ironic/common/states.py) and its state lists that
 * are not facts of the machine itself; the machine, its verbs and the lists derived from it live in
 * conductor/fsm.ts.
 */
// Provision states.
export const NOSTATE = null;
export const ENROLL = 'enroll';
export const VERIFYING = 'verifying';
export const MANAGEABLE = 'manageable';
export const AVAILABLE = 'available';
export const ACTIVE = 'active';
export const DEPLOY = 'deploy';
export const DEPLOYWAIT = 'wait call-back';
export const DEPLOYING = 'deploying';
export const DEPLOYFAIL = 'deploy failed';
export const DEPLOYDONE = 'deploy complete';
export const DEPLOYHOLD = 'deploy hold';
export const DELETING = 'deleting';
export const DELETED = 'deleted';
export const CLEANING = 'cleaning';
export const UNDEPLOY = 'undeploy';
export const CLEANWAIT = 'clean wait';
export const CLEANFAIL = 'clean failed';
export const CLEANHOLD = 'clean hold';
export const ERROR = 'error';
export const REBUILD = 'rebuild';
export const INSPECTING = 'inspecting';
export const INSPECTFAIL = 'inspect failed';
export const INSPECTWAIT = 'inspect wait';
export const ADOPTING = 'adopting';
export const ADOPTFAIL = 'adopt failed';
export const RESCUE = 'rescue';
export const RESCUEFAIL = 'rescue failed';
export const RESCUEWAIT = 'rescue wait';
export const RESCUING = 'rescuing';
export const UNRESCUEFAIL = 'unrescue failed';
export const UNRESCUING = 'unrescuing';
export const SERVICE = 'service';
export const SERVICING = 'servicing';
export const SERVICEWAIT = 'service wait';
export const SERVICEFAIL = 'service failed';
export const SERVICEHOLD = 'service hold';

// Power states.
export const POWER_ON = 'power on';
export const POWER_OFF = 'power off';
export const REBOOT = 'rebooting';
export const SOFT_REBOOT = 'soft rebooting';
export const SOFT_POWER_OFF = 'soft power off';

/** Node PATCH is allowed in these states even though a target state is set (Ironic 2025.1's list). */
export const UPDATE_ALLOWED_STATES: readonly string[] = [
  DEPLOYFAIL, INSPECTING, INSPECTFAIL, INSPECTWAIT, CLEANFAIL, ERROR, VERIFYING, ADOPTFAIL, RESCUEFAIL, UNRESCUEFAIL,
  SERVICE, SERVICEHOLD, SERVICEFAIL,
];

export const DELETE_ALLOWED_STATES: readonly string[] = [MANAGEABLE, ENROLL, ADOPTFAIL];

/** States a dead conductor leaves nodes in that nobody can resume: they are failed on takeover. */
export const STUCK_STATES_TREATED_AS_FAIL: readonly string[] = [
  DEPLOYING, CLEANING, VERIFYING, INSPECTING, ADOPTING, RESCUING, UNRESCUING, DELETING, SERVICING,
];

/** Where an agent may look its node up (Ironic 2025.1's list, unchanged since 21.4.4). */
export const LOOKUP_ALLOWED_STATES: readonly string[] = [
  DEPLOYING, DEPLOYWAIT, CLEANING, CLEANWAIT, INSPECTING, INSPECTWAIT, RESCUING, RESCUEWAIT,
];

/**
 * The same with fast track, which keeps the agent running between operations. Only here do the
 * servicing states appear, so in Ironic 2025.1 a service ramdisk finds its node only with fast track on.
 */
export const FASTTRACK_LOOKUP_ALLOWED_STATES: readonly string[] = [
  ...LOOKUP_ALLOWED_STATES, ENROLL, MANAGEABLE, AVAILABLE, SERVICING, SERVICEWAIT, SERVICEHOLD,
];

/** Power sync leaves nodes alone while a ramdisk owns their power (manager.SYNC_EXCLUDED_STATES). */
export const SYNC_EXCLUDED_STATES: readonly string[] = [DEPLOYWAIT, CLEANWAIT, ENROLL, ADOPTFAIL];

// node_history event types (states.py "Provisioning / activity types").
export const HISTORY_PROVISIONING = 'provisioning';
export const HISTORY_CLEANING = 'cleaning';
export const HISTORY_DEPLOYING = 'deploying';
export const HISTORY_TAKEOVER = 'takeover';
export const HISTORY_INTROSPECTION = 'introspection';
export const HISTORY_RESCUE = 'rescue';
export const HISTORY_CONDUCTOR = 'conductor';
export const HISTORY_TRANSITION = 'transition';
export const HISTORY_STARTFAIL = 'startup failure';
export const HISTORY_UNPROVISION = 'unprovision';
export const HISTORY_ADOPTION = 'adoption';
export const HISTORY_CONSOLE = 'console';
export const HISTORY_MONITORING = 'monitoring';
export const HISTORY_VERIFY = 'verify';

/** node.fault values (ironic/common/faults.py). */
export const FAULT_POWER_FAILURE = 'power failure';
export const FAULT_CLEAN_FAILURE = 'clean failure';
export const FAULT_RESCUE_ABORT_FAILURE = 'rescue abort failure';
export const FAULT_SERVICE_FAILURE = 'service failure';

/** faults.VALID_FAULTS, in its order (the node list's refusal quotes it). */
export const VALID_FAULTS: readonly string[] = [FAULT_POWER_FAILURE, FAULT_CLEAN_FAILURE, FAULT_RESCUE_ABORT_FAILURE, FAULT_SERVICE_FAILURE];
