/** utils.validate_network_port: a driver_info port as an int in 0..65535, else Ironic's message. */
import { InvalidParameterValue } from '../common/errors';
import { pyInt } from '../common/python/int';
import { pyStr } from '../common/python/str';

export function validateNetworkPort(value: unknown, name: string): number {
  const port = pyInt(value);
  if (port === null || port < 0 || port > 65535) {
    throw new InvalidParameterValue(`${name} "${pyStr(value)}" is not a valid port.`);
  }
  return port;
}
