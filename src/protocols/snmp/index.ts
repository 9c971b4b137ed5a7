export { SnmpClient, SnmpError, SnmpRequestError, SnmpTimeoutError } from './client';
export type { SnmpClientOptions, SnmpV3Credentials, SnmpVersion, SnmpAuthProtocol, SnmpPrivProtocol, SnmpValue } from './client';
