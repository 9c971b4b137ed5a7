/**
 * Step machinery shared by cleaning, deployment and servicing (conductor/steps.py): gather the
 * driver's steps, order them, validate user-requested steps with Ironic's messages, run them.
 */
import { InvalidParameterValue } from '../common/errors';
import type { InterfaceKind, JsonObject, StepInfo, StepKind, StepResult } from '../drivers/base';
import { INTERFACE_KINDS } from '../drivers/base';
import { noSuchStep, stepsOf } from '../drivers/declared-steps';
import type { Step } from '../rpc/conductor-api';
import { pyRepr } from '../common/python/repr';
import type { Config } from '../conf/config';
import { parseDict } from '../conf/values';
import type { Task } from './task';
import { STEP_INTERFACES } from '../common/step-interfaces';

const stepId = (s: { interface: string; step: string }): string => `${s.interface}.${s.step}`;

/** Tie-break priority of each step interface: the first of STEP_INTERFACES ranks highest. */
const INTERFACE_PRIORITY: ReadonlyMap<string, number> = new Map(STEP_INTERFACES.map((name, i) => [name, STEP_INTERFACES.length - i]));

export interface NodeStep {
  interface: string;
  step: string;
  args?: JsonObject;
  priority: number;
  /** A driver step's argument descriptions, as the driver reports them (user steps carry args instead). */
  argsinfo?: StepInfo['argsinfo'];
  abortable?: boolean;
  requires_ramdisk?: boolean;
}

/** All steps of `kind` the node's driver offers. */
export function driverSteps(task: Task, kind: StepKind): StepInfo[] {
  const out: StepInfo[] = [];
  for (const iface of INTERFACE_KINDS) {
    const impl = task.driver[iface];
    out.push(...stepsOf(impl, kind), ...(impl.runtimeSteps?.(task, kind) ?? []));
  }
  return out;
}

/**
 * [conductor]clean_step_priority_override as steps._get_cleaning_steps merges it: every value is a
 * Dict of 'interface.step: priority', later values winning.
 */
export function cleanPriorityOverrides(conf: Config): Map<string, string> {
  const raw = conf.raw('conductor', 'clean_step_priority_override');
  const out = new Map<string, string>();
  if (!Array.isArray(raw)) return out;
  const fail = (detail: string): never => {
    throw new InvalidParameterValue(`Invalid [conductor]clean_step_priority_override: ${detail}`);
  };
  for (const value of raw) for (const [key, priority] of Object.entries(parseDict(String(value), fail))) out.set(key, priority);
  return out;
}

/** _get_steps' overrides: a step named in `overrides` (with a non-empty value) takes that priority. */
export function withPriorityOverrides<T extends { interface: string; step: string; priority?: number }>(
  steps: T[], overrides: ReadonlyMap<string, string>): T[] {
  if (overrides.size === 0) return steps;
  return steps.map((s) => {
    const value = overrides.get(stepId(s));
    if (!value) return s;
    const priority = Number(value);
    if (!Number.isInteger(priority)) throw new InvalidParameterValue(`invalid literal for int() with base 10: '${value}'`);
    return { ...s, priority };
  });
}

/** Highest priority first; ties broken by interface priority (steps._sorted_steps). */
export function sortSteps<T extends { priority?: number; interface: string }>(steps: T[]): T[] {
  const key = (s: T) => [s.priority ?? 0, INTERFACE_PRIORITY.get(s.interface) ?? 0];
  return [...steps].sort((a, b) => {
    const [pa, ia] = key(a);
    const [pb, ib] = key(b);
    return pb - pa || ib - ia;
  });
}

/**
 * Step names the conductor resolves itself (use_reserved_step_handler). Validation passes over
 * them (and over steps meant for child nodes), leaving them out of the list it returns, as Ironic
 * 2025.1 does.
 */
const RESERVED_STEPS: ReadonlySet<string> = new Set(['power_on', 'power_off', 'reboot', 'hold', 'wait']);

/** Validates user steps against the driver's (_validate_user_steps); returns them completed. */
export function validateUserSteps(task: Task, kind: StepKind, userSteps: Step[], opts: {
  disableRamdisk?: boolean; errorPrefix?: string; skipMissing?: boolean;
} = {}): NodeStep[] {
  const known = new Map(driverSteps(task, kind).map((s) => [stepId(s), s]));
  const errors: string[] = [];
  const result: NodeStep[] = [];
  for (const raw of userSteps) {
    const user: Record<string, unknown> = { ...raw };
    if (user.execute_on_child_nodes || RESERVED_STEPS.has(String(raw.step))) continue;
    const driverStep = known.get(stepId(raw));
    if (!driverStep) {
      if (!opts.skipMissing) errors.push(`node does not support this ${kind} step: ${pyRepr(user)}`);
      continue;
    }
    errors.push(...checkArgs(kind, user, driverStep, opts.disableRamdisk ?? false));
    if (kind !== 'deploy') {
      // Fields a user may not set come from the driver.
      user.abortable = driverStep.abortable ?? false;
      user.priority = driverStep.priority;
    }
    result.push(kind === 'deploy'
      ? { interface: raw.interface, step: raw.step, args: (raw.args ?? {}) as JsonObject, priority: Number(user.priority ?? 0) }
      : user as unknown as NodeStep);
  }
  if (kind === 'deploy') errors.push(...duplicateErrors(result));
  if (errors.length) throw new InvalidParameterValue({ err: (opts.errorPrefix ?? '') + errors.join('; ') });
  return result;
}

function checkArgs(kind: StepKind, user: Record<string, unknown>, driverStep: StepInfo, disableRamdisk: boolean): string[] {
  const errors: string[] = [];
  const argsinfo = driverStep.argsinfo ?? {};
  const args = (user.args ?? {}) as JsonObject;
  const unexpected = Object.keys(args).filter((a) => !Object.hasOwn(argsinfo, a));
  if (unexpected.length) {
    errors.push(`${kind} step ${pyRepr(user)} has these unexpected arguments: ${unexpected.join(', ')}`);
  }
  if (kind !== 'deploy' || Number(user.priority ?? 0) > 0) {
    const missing = Object.entries(argsinfo).filter(([name, info]) => info.required && !Object.hasOwn(args, name))
      .map(([name, info]) => (info.description ? `${name} (${info.description})` : name));
    if (missing.length) errors.push(`${kind} step ${pyRepr(user)} is missing these required arguments: ${missing.join(', ')}`);
    if (disableRamdisk && (driverStep.requires_ramdisk ?? true)) errors.push(`${kind} step ${pyRepr(user)} requires booting a ramdisk`);
  }
  if (kind === 'deploy' && Number(user.priority ?? 0) > 0 && driverStep.interface === 'deploy' && driverStep.step === 'deploy') {
    errors.push(`deploy step ${String(user.step)} on interface ${String(user.interface)} is a core step and cannot be ` +
      'overridden by user steps. It may be disabled by setting the priority to 0');
  }
  return errors;
}

function duplicateErrors(steps: NodeStep[]): string[] {
  const seen = new Map<string, number>();
  for (const s of steps) seen.set(stepId(s), (seen.get(stepId(s)) ?? 0) + 1);
  const dups = [...seen.entries()].filter(([, n]) => n > 1).map(([id]) => id);
  if (!dups.length) return [];
  return [`Duplicate deploy steps for ${dups.map((d) => {
    const [iface, step] = d.split('.');
    return `${iface}.${step}`;
  }).join(', ')}. Deploy steps from all deploy templates matching this node's instance traits cannot have the same interface and step`];
}

const isInterfaceKind = (name: string): name is InterfaceKind => (INTERFACE_KINDS as readonly string[]).includes(name);

/**
 * The one dispatcher of the step flows: runs a step on its interface, which runs the function its
 * declaration carries (execute_*_step). A returned wait state pauses the flow.
 */
export async function executeStep(task: Task, step: NodeStep): Promise<StepResult> {
  const iface = isInterfaceKind(step.interface) ? task.driver[step.interface] : undefined;
  if (!iface?.executeStep) throw noSuchStep(step.interface, step.step);
  return iface.executeStep(task, step.step, step.args ?? {});
}
