/**
 * Ironic's METRICS.timer on driver interface methods: which ironic-ts interfaces stand for which
 * Ironic classes, and the timer each method sends (the class that defines the method in Ironic, e.g.
 * PXEBoot.prepareRamdisk is `ironic.drivers.modules.pxe_base.PXEBaseMixin.prepare_ramdisk`).
 * The DriverFactory wraps an implementation once, only when the statsd backend is on.
 */
import { MetricLogger, ironicMetricsOn } from '../metrics/ironic-metrics';
import type { BaseInterface } from './base';

type Timers = Readonly<Record<string, readonly [logger: MetricLogger, name: string]>>;

const IPMITOOL = new MetricLogger('ironic.drivers.modules.ipmitool');
const PXE_BASE = new MetricLogger('ironic.drivers.modules.pxe_base');
const AGENT = new MetricLogger('ironic.drivers.modules.agent');
const AGENT_BASE = new MetricLogger('ironic.drivers.modules.agent_base');
const RAMDISK = new MetricLogger('ironic.drivers.modules.ramdisk');

const PXE_BASE_TIMERS: Timers = {
  validate: [PXE_BASE, 'PXEBaseMixin.validate'], prepareRamdisk: [PXE_BASE, 'PXEBaseMixin.prepare_ramdisk'],
  cleanUpRamdisk: [PXE_BASE, 'PXEBaseMixin.clean_up_ramdisk'], prepareInstance: [PXE_BASE, 'PXEBaseMixin.prepare_instance'],
  cleanUpInstance: [PXE_BASE, 'PXEBaseMixin.clean_up_instance'], validateInspection: [PXE_BASE, 'PXEBaseMixin.validate_inspection'],
};

const TIMED = new Map<string, Timers>([
  ['IPMIPower', {
    validate: [IPMITOOL, 'IPMIPower.validate'], getPowerState: [IPMITOOL, 'IPMIPower.get_power_state'],
    setPowerState: [IPMITOOL, 'IPMIPower.set_power_state'], reboot: [IPMITOOL, 'IPMIPower.reboot'],
  }],
  ['IPMIManagement', {
    validate: [IPMITOOL, 'IPMIManagement.validate'], getBootDevice: [IPMITOOL, 'IPMIManagement.get_boot_device'],
    setBootDevice: [IPMITOOL, 'IPMIManagement.set_boot_device'], injectNmi: [IPMITOOL, 'IPMIManagement.inject_nmi'],
    detectVendor: [IPMITOOL, 'IPMIManagement.detect_vendor'],
  }],
  ['PXEBoot', PXE_BASE_TIMERS], ['iPXEBoot', PXE_BASE_TIMERS], ['HttpBootInterface', PXE_BASE_TIMERS],
  ['iPXEHttpBootInterface', PXE_BASE_TIMERS],
  ['AgentDeploy', {
    validate: [AGENT, 'AgentDeploy.validate'], prepare: [AGENT, 'CustomAgentDeploy.prepare'],
    deploy: [AGENT, 'CustomAgentDeploy.deploy'], cleanUp: [AGENT, 'CustomAgentDeploy.clean_up'],
    tearDown: [AGENT_BASE, 'AgentBaseMixin.tear_down'], heartbeat: [AGENT_BASE, 'HeartbeatMixin.heartbeat'],
    prepareCleaning: [AGENT_BASE, 'AgentBaseMixin.prepare_cleaning'],
    tearDownCleaning: [AGENT_BASE, 'AgentBaseMixin.tear_down_cleaning'],
    tearDownService: [AGENT_BASE, 'AgentBaseMixin.tear_down_service'],
  }],
  ['AgentRescue', {
    validate: [AGENT, 'AgentRescue.validate'], rescue: [AGENT, 'AgentRescue.rescue'], unrescue: [AGENT, 'AgentRescue.unrescue'],
    cleanUp: [AGENT, 'AgentRescue.clean_up'],
  }],
  ['RamdiskDeploy', { prepare: [RAMDISK, 'RamdiskDeploy.prepare'], deploy: [RAMDISK, 'RamdiskDeploy.deploy'] }],
]);

/** The implementation with Ironic's timers around the methods Ironic times, or itself. */
export function withIronicTimers<I extends BaseInterface>(impl: I): I {
  const timers = TIMED.get(impl.className);
  if (!timers || !ironicMetricsOn()) return impl;
  const timed = Object.create(impl) as Record<string, unknown>;
  for (const [method, [logger, name]] of Object.entries(timers)) {
    const original = (impl as unknown as Record<string, unknown>)[method];
    if (typeof original !== 'function') continue;
    timed[method] = function (this: unknown, ...args: unknown[]): Promise<unknown> {
      return logger.time(name, () => (original as (...a: unknown[]) => Promise<unknown>).apply(this, args));
    };
  }
  return timed as unknown as I;
}
