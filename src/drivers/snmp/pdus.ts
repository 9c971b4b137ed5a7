/**
 * Per-PDU MIB facts (drivers/modules/snmp.py SNMPDriver* classes): which object reads an outlet's
 * state, which objects switch it, the integers written, and which read values mean on or off.
 */
const ENTERPRISE = '1.3.6.1.4.1';

export interface PduModel {
  /** OID read for the outlet's state. */
  statusOid(outlet: number): string;
  /** OID and INTEGER written to switch the outlet on / off. */
  powerOn(outlet: number): { oid: string; value: number };
  powerOff(outlet: number): { oid: string; value: number };
  /** Read values meaning on / off (others: an unrecognised state, Ironic's ERROR). */
  onStates: readonly number[];
  offStates: readonly number[];
}

/** SNMPDriverSimple: one object per outlet, read and written with the same two values. */
function simple(device: string, on: number, off: number, suffix = ''): PduModel {
  const oid = (outlet: number): string => `${ENTERPRISE}.${device}.${outlet}${suffix}`;
  return {
    statusOid: oid,
    powerOn: (outlet) => ({ oid: oid(outlet), value: on }),
    powerOff: (outlet) => ({ oid: oid(outlet), value: off }),
    onStates: [on],
    offStates: [off],
  };
}

interface SplitSpec {
  device: string;
  status: string;
  on: { column: string; value: number };
  off: { column: string; value: number };
  index: string;
  onStates: number[];
  offStates: number[];
}

/** PDUs with a separate status column and action column(s), indexed by tower/infeed then outlet. */
function split(spec: SplitSpec): PduModel {
  const oid = (column: string, outlet: number): string => `${ENTERPRISE}.${spec.device}.${column}${spec.index}.${outlet}`;
  return {
    statusOid: (outlet) => oid(spec.status, outlet),
    powerOn: (outlet) => ({ oid: oid(spec.on.column, outlet), value: spec.on.value }),
    powerOff: (outlet) => ({ oid: oid(spec.off.column, outlet), value: spec.off.value }),
    onStates: spec.onStates,
    offStates: spec.offStates,
  };
}

const APC_MASTERSWITCH = simple('318.1.1.4.4.2.1.3', 1, 2);

/** DRIVER_CLASSES minus `auto`, which picks one of these from the agent's sysObjectID. */
export const PDU_MODELS: ReadonlyMap<string, PduModel> = new Map([
  ['apc', APC_MASTERSWITCH],
  ['apc_masterswitch', APC_MASTERSWITCH],
  ['apc_masterswitchplus', simple('318.1.1.6.5.1.1.5', 1, 3)],
  ['apc_rackpdu', simple('318.1.1.12.3.3.1.1.4', 1, 2)],
  ['aten', simple('21317.1.3.2.2.2.2', 2, 1, '.0')],
  ['cyberpower', simple('3808.1.1.3.3.3.1.1.4', 1, 2)],
  ['eatonpower', split({ device: '534.6.6.7.6.6.1', status: '2', on: { column: '3', value: 0 },
    off: { column: '4', value: 0 }, index: '', onStates: [1, 2], offStates: [0, 3] })],
  ['teltronix', simple('23620.1.2.2.1.4', 2, 1)],
  ['baytech_mrp27', simple('4779.1.3.5.3.1.3.1', 1, 0)],
  ['servertech_sentry3', split({ device: '1718.3.2.3.1', status: '5', on: { column: '11', value: 1 },
    off: { column: '11', value: 2 }, index: '.1.1', onStates: [1, 2], offStates: [0, 3] })],
  ['servertech_sentry4', split({ device: '1718.4.1.8.5.1', status: '1', on: { column: '2', value: 1 },
    off: { column: '2', value: 2 }, index: '.1.1', onStates: [11, 8, 3], offStates: [10, 9] })],
  ['raritan_pdu2', split({ device: '13742.6.4.1.2.1', status: '3', on: { column: '2', value: 1 },
    off: { column: '2', value: 0 }, index: '.1', onStates: [7], offStates: [8] })],
  ['vertivgeist_pdu', split({ device: '21239.5.2.3.5.1', status: '4', on: { column: '6', value: 2 },
    off: { column: '6', value: 4 }, index: '', onStates: [1, 3], offStates: [2, 4] })],
]);

/** sysObjectID prefixes (under enterprises) the `auto` driver recognises, and the model each picks. */
const SYSTEM_IDS: ReadonlyArray<[string, string]> = [
  ['318.1.1.4', 'apc_masterswitch'],
  ['318.1.1.6', 'apc_masterswitchplus'],
  ['318.1.1.12', 'apc_rackpdu'],
  ['21317', 'aten'],
  ['3808', 'cyberpower'],
  ['23620', 'teltronix'],
  ['534', 'eatonpower'],
];

/** SNMPDriverAuto._get_pdu_driver: the model whose system ID is the longest prefix of sysObjectID. */
export function pduForSystemId(sysObjectId: string): string | undefined {
  const id = sysObjectId.replace(/^\./, '');
  let best: [string, string] | undefined;
  for (const entry of SYSTEM_IDS) {
    const prefix = `${ENTERPRISE}.${entry[0]}`;
    if ((id === prefix || id.startsWith(`${prefix}.`)) && (!best || prefix.length > best[0].length)) best = [prefix, entry[1]];
  }
  return best?.[1];
}

/** Every snmp_driver value Ironic accepts, in its order. */
export const PDU_DRIVER_NAMES: readonly string[] = [...PDU_MODELS.keys(), 'auto'];
