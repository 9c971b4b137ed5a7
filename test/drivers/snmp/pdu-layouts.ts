/**
 * PDU models as the test agent plays them, written from the vendors' MIBs as Ironic 21.4.4's
 * drivers/modules/snmp.py describes them (SNMPDriver* classes), independently of
 * src/drivers/snmp/pdus.ts so a wrong OID or value there makes the tests fail.
 */
const E = '1.3.6.1.4.1';

/** What a SET of `value` on an action column does to the outlet's status object. */
export interface PduAction {
  /** OID of the action object without the outlet index (and suffix). */
  column: string;
  /** The INTEGER written, or '*' for any. */
  value: number | '*';
  /** The status it leaves, or '*' for the value written. */
  becomes: number | '*';
  /** A transitional status read once before `becomes` (a relay still moving). */
  pending?: number;
}

export interface PduLayout {
  /** snmp_driver value. */
  driver: string;
  /** Subtree snmpd hands to the layout's `pass` script. */
  subtree: string;
  /** Status object of outlet N: `${status}.N${suffix}`. */
  status: string;
  suffix: string;
  /** Status of an outlet nobody has switched: off. */
  initial: number;
  /** First match wins; a write matching no column is not-writable, a column with no value match is wrong-value. */
  actions: PduAction[];
  /** Status values meaning on / off, as the vendor's MIB (and Ironic) read them. */
  on: number;
  off: number;
  /** What a GET of a separate action object returns (snmpd reads an object before it sets it). */
  idle?: number;
}

/** One object per outlet, read and written with the same values (SNMPDriverSimple). */
function simple(driver: string, oid: string, on: number, off: number, extra: PduAction[] = [], suffix = ''): PduLayout {
  return {
    driver, subtree: oid, status: oid, suffix, initial: off, on, off,
    actions: [...extra, { column: oid, value: on, becomes: on }, { column: oid, value: off, becomes: off }],
  };
}

/** Status and action in columns of one table, under a common subtree. */
function table(driver: string, subtree: string, spec: Omit<PduLayout, 'driver' | 'subtree' | 'suffix'>): PduLayout {
  return { driver, subtree, suffix: '', ...spec };
}

export const APC_OUTLET = `${E}.318.1.1.4.4.2.1.3`;

export const PDU_LAYOUTS: readonly PduLayout[] = [
  // sPDUOutletCtl: 1 on, 2 off, 3 power cycle (ends on); other values are stored as they are, so
  // tests can make the outlet report states Ironic does not recognise.
  simple('apc', APC_OUTLET, 1, 2, [{ column: APC_OUTLET, value: 3, becomes: 1 }, { column: APC_OUTLET, value: '*', becomes: '*' }]),
  // ATEN outlet N status, instance .0: 1 off, 2 on.
  simple('aten', `${E}.21317.1.3.2.2.2.2`, 2, 1, [], '.0'),
  // CyberPower ePDUOutletControlOutletCommand: 1 on, 2 off.
  simple('cyberpower', `${E}.3808.1.1.3.3.3.1.1.4`, 1, 2),
  // Teltronix outlet power: 1 off, 2 on.
  simple('teltronix', `${E}.23620.1.2.2.1.4`, 2, 1),
  // Baytech MRP27 unit 1 outlet power: 0 off, 1 on.
  simple('baytech_mrp27', `${E}.4779.1.3.5.3.1.3.1`, 1, 0),
  // Eaton: status .2 (0 off, 1 on, 2 pending off, 3 pending on); Ironic writes 0 to .3 to switch on
  // and 0 to .4 to switch off (the vendor MIB names those columns the other way round; Ironic's
  // code is what ironic-ts must match). The relay passes through the pending state.
  table('eatonpower', `${E}.534.6.6.7.6.6.1`, {
    status: `${E}.534.6.6.7.6.6.1.2`, initial: 0, on: 1, off: 0, idle: -1,
    actions: [
      { column: `${E}.534.6.6.7.6.6.1.3`, value: 0, becomes: 1, pending: 3 },
      { column: `${E}.534.6.6.7.6.6.1.4`, value: 0, becomes: 0, pending: 2 },
    ],
  }),
  // Sentry3 tower 1 infeed 1: outletStatus .5 (0 off, 1 on, 2 off wait, 3 on wait),
  // outletControlAction .11 (1 on, 2 off, 3 reboot).
  table('servertech_sentry3', `${E}.1718.3.2.3.1`, {
    status: `${E}.1718.3.2.3.1.5.1.1`, initial: 0, on: 1, off: 0, idle: 0,
    actions: [
      { column: `${E}.1718.3.2.3.1.11.1.1`, value: 1, becomes: 1, pending: 3 },
      { column: `${E}.1718.3.2.3.1.11.1.1`, value: 2, becomes: 0, pending: 2 },
    ],
  }),
  // Raritan PDU2 unit 1: outlet switch state .3 (7 on, 8 off), switchingOperation .2 (0 off, 1 on, 2 cycle).
  table('raritan_pdu2', `${E}.13742.6.4.1.2.1`, {
    status: `${E}.13742.6.4.1.2.1.3.1`, initial: 8, on: 7, off: 8, idle: 0,
    actions: [
      { column: `${E}.13742.6.4.1.2.1.2.1`, value: 1, becomes: 7 },
      { column: `${E}.13742.6.4.1.2.1.2.1`, value: 0, becomes: 8 },
    ],
  }),
  // Vertiv Geist: outlet state .4 (1 on, 2 off, 3 on2off, 4 off2on), action .6 (2 on, 4 off), no unit index.
  table('vertivgeist_pdu', `${E}.21239.5.2.3.5.1`, {
    status: `${E}.21239.5.2.3.5.1.4`, initial: 2, on: 1, off: 2, idle: 0,
    actions: [
      { column: `${E}.21239.5.2.3.5.1.6`, value: 2, becomes: 1, pending: 4 },
      { column: `${E}.21239.5.2.3.5.1.6`, value: 4, becomes: 2, pending: 3 },
    ],
  }),
];

export function layout(driver: string): PduLayout {
  const found = PDU_LAYOUTS.find((l) => l.driver === driver);
  if (!found) throw new Error(`no PDU layout ${driver}`);
  return found;
}

export function statusOid(l: PduLayout, outlet: number): string {
  return `${l.status}.${outlet}${l.suffix}`;
}
