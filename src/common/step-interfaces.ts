/**
 * The interfaces clean, deploy and service steps may name, in the order of conductor/steps.py's
 * CLEANING/DEPLOYING_INTERFACE_PRIORITY (highest tie-break first; 29.0.5 added vendor and firmware).
 * The API's step schemas list them in this order and the conductor sorts equal priorities by it.
 */
export const STEP_INTERFACES: readonly string[] = ['vendor', 'power', 'management', 'firmware', 'deploy', 'bios', 'raid'];
