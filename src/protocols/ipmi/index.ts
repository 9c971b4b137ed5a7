/**
 * IPMI over LAN, protocol level only (no Ironic concepts).
 *
 *   const bmc = new IpmiClient({ address, port: 623, username, password, privLevel: 'administrator',
 *                                cipherSuite: 17, protocolVersion: '2.0', kgKey, timeoutMs, retries });
 *   await bmc.getPowerState();                  // 'on' | 'off'
 *   await bmc.setBootDevice('pxe', { persistent: true, efi: true });
 *   await bmc.close();                          // back to the session pool (or Close Session)
 *
 * IpmitoolClient offers the same IpmiPowerClient contract by running the ipmitool binary.
 * Every failure is an IpmiError subclass (see ./errors). The simulator lives in ./sim.
 */
export { IpmiClient, parseKgKey, type IpmiClientDeps } from './client';
export { IpmitoolClient, type IpmitoolClientOptions } from './ipmitool-client';
export { SessionPool, defaultSessionPool, type SessionPoolOptions } from './pool';
export { asfPing, type AsfPingOptions } from './ping';
export * from './errors';
export * from './types';
export { supportedCipherSuiteIds } from './cipher-suites';
export { completionCodeName } from './completion-codes';
export type { IpmiRequest, IpmiResponse } from './message';
