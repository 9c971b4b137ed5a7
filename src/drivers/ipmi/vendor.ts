/**
 * IPMI vendor passthru (drivers/modules/ipmitool.py VendorPassthru): `send_raw` and `bmc_reset`.
 * The routes are what `GET .../vendor_passthru/methods` lists; callers run the methods below.
 */
import { InvalidParameterValue, MissingParameterValue } from '../../common/errors';
import { boolFromString } from '../../common/python/bool-from-string';
import type { DriverTask, JsonObject, VendorInterface } from '../base';
import { IPMI_PROPERTIES, ipmiCall, parseIpmiDriverInfo } from './common';
import { sendRaw } from './management';

/** App netfn Cold Reset / Warm Reset (IPMI 2.0 section 20.2, 20.3). */
const NETFN_APP = 0x06;
const COLD_RESET = 0x02;
const WARM_RESET = 0x03;

export interface IpmitoolVendor extends VendorInterface {
  /** VendorPassthru.validate(task, method, **kwargs). */
  validateMethod(task: DriverTask, method: string, args: JsonObject): Promise<void>;
  /** Sends "0x.. 0x.." to the BMC; resolves the response bytes as ipmitool prints them. */
  sendRaw(task: DriverTask, rawBytes: string): Promise<string>;
  bmcReset(task: DriverTask, warm?: unknown): Promise<void>;
}

export function createIpmitoolVendor(): IpmitoolVendor {
  return {
    kind: 'vendor', name: 'ipmitool', className: 'VendorPassthru',
    properties: () => ({ ...IPMI_PROPERTIES }),
    async validate(task) {
      parseIpmiDriverInfo(task.node);
    },
    routes: {
      send_raw: {
        httpMethods: ['POST'], async: true,
        description: "Send raw bytes to the BMC. Required argument: 'raw_bytes' - a string of raw bytes (e.g. '0x00 0x01').",
      },
      bmc_reset: {
        httpMethods: ['POST'], async: true,
        description: "Reset the BMC. Required argument: 'warm' (Boolean) - for warm (True) or cold (False) reset.",
      },
    },
    async validateMethod(task, method, args) {
      if (method === 'send_raw' && !args.raw_bytes) {
        throw new MissingParameterValue('Parameter raw_bytes (string of bytes) was not specified.');
      }
      parseIpmiDriverInfo(task.node);
    },
    async sendRaw(task, rawBytes) {
      const out = await sendRaw(task, rawBytes);
      return [...out].map((b) => ` ${b.toString(16).padStart(2, '0')}`).join('');
    },
    // Both methods are asynchronous: their results are only logged, as in Ironic.
    async invoke(task, method, args) {
      if (method === 'send_raw') return this.sendRaw(task, String(args.raw_bytes));
      if (method === 'bmc_reset') return this.bmcReset(task, args.warm ?? true);
      throw new InvalidParameterValue(`No handler for method ${method}`);
    },
    async bmcReset(task, warm = true) {
      const isWarm = boolFromString(warm);
      await ipmiCall(task, `bmc reset ${isWarm ? 'warm' : 'cold'}`, (c) => c.raw(NETFN_APP, isWarm ? WARM_RESET : COLD_RESET));
    },
  };
}
