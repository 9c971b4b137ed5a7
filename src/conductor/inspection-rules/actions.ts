/**
 * The actions of inspection rules (common/inspection_rules/actions.py), by name. Node and port
 * attributes are addressed by path ("properties/cpu_arch" or "driver_info.ipmi_address"); any
 * failure becomes a RuleActionExecutionFailure naming it, as in Ironic.
 */
import {
  HardwareInspectionFailure, InspectionRuleExecutionFailure, PortNotFound, RuleActionExecutionFailure,
} from '../../common/errors';
import { log } from '../../common/log';
import { pyStr } from '../../common/python/str';
import type { OpArgs } from '../../common/inspection-rules/arguments';
import { normalizePath } from '../../common/inspection-rules/signatures';
import { isNotFound } from '../../db/errors';
import * as traits from '../../db/repositories/node-traits';
import type { Task } from '../task';
import { pyEquals } from './python-values';

type Act = (task: Task, args: OpArgs) => Promise<void>;
type Record_ = Record<string, unknown>;

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function isDict(v: unknown): v is Record_ {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A key a rule may write: `__proto__` would replace an object's prototype instead of naming a key. */
function writable(key: string): string {
  if (key === '__proto__') throw new Error(`'${key}' cannot be set`);
  return key;
}

/** The dict at parts[1..-1] below `root`, created on the way (setdefault). */
function containerFor(root: unknown, parts: string[], create: boolean): Record_ {
  let current = root;
  for (const part of parts.slice(1, -1)) {
    if (!isDict(current)) throw new TypeError(`'${typeof current}' object does not support item assignment`);
    if (!Object.hasOwn(current, part)) {
      if (!create) throw new Error(`'${part}'`);
      current[writable(part)] = {};
    }
    current = current[part];
  }
  if (!isDict(current)) throw new TypeError(`'${typeof current}' object does not support item assignment`);
  return current;
}

/** A copy of the record's top-level attribute, so the change is seen by the record's change tracking. */
function attribute(record: Record_, name: string): unknown {
  if (!Object.hasOwn(record, name)) throw new Error(`'${name}' is not an attribute`);
  return structuredClone(record[name]);
}

function setPath(record: Record_, path: string, value: unknown): void {
  const parts = normalizePath(path);
  if (parts.length === 1) {
    // Python's setattr of an unknown name on the object is saved nowhere.
    if (Object.hasOwn(record, parts[0])) record[parts[0]] = value;
    return;
  }
  const base = attribute(record, parts[0]);
  containerFor(base, parts, true)[writable(parts[parts.length - 1])] = value;
  record[parts[0]] = base;
}

function extendPath(record: Record_, path: string, value: unknown, unique: unknown): void {
  const parts = normalizePath(path);
  let base: unknown;
  let list: unknown;
  if (parts.length === 1) {
    list = Object.hasOwn(record, parts[0]) ? structuredClone(record[parts[0]]) : [];
  } else {
    base = attribute(record, parts[0]);
    const holder = containerFor(base, parts, true);
    const last = parts[parts.length - 1];
    if (!Object.hasOwn(holder, last)) holder[writable(last)] = [];
    list = holder[last];
  }
  if (!Array.isArray(list)) throw new Error(`Cannot extend non-list attribute ${path} with value ${pyStr(value)}`);
  if (!unique || !list.some((v) => pyEquals(v, value))) list.push(value);
  if (parts.length === 1) {
    if (Object.hasOwn(record, parts[0])) record[parts[0]] = list;
  } else {
    record[parts[0]] = base;
  }
}

function deletePath(record: Record_, path: string): void {
  const parts = normalizePath(path);
  if (parts.length === 1) {
    if (!Object.hasOwn(record, parts[0])) throw new Error(parts[0]);
    return;
  }
  const base = attribute(record, parts[0]);
  const holder = containerFor(base, parts, false);
  const last = parts[parts.length - 1];
  if (!Object.hasOwn(holder, last)) throw new Error(`'${last}'`);
  delete holder[last];
  record[parts[0]] = base;
}

function failing(what: (args: OpArgs) => string, act: Act): Act {
  return async (task, args) => {
    try {
      await act(task, args);
    } catch (err) {
      if (err instanceof RuleActionExecutionFailure) throw err;
      const msg = `${what(args)}: ${errorText(err)}`;
      log.error(msg);
      throw new RuleActionExecutionFailure({ reason: msg });
    }
  };
}

function nodeRecord(task: Task): Record_ {
  return task.node as unknown as Record_;
}

function portOf(task: Task, portId: unknown): Record_ {
  const port = task.ports.find((p) => p.uuid === portId);
  if (!port) throw new PortNotFound({ port: pyStr(portId) });
  return port as unknown as Record_;
}

/** Saves a port changed in place (its fields compared with the row's). */
async function savePort(task: Task, port: Record_, before: Record_): Promise<void> {
  const changes: Record_ = {};
  for (const key of Object.keys(port)) if (JSON.stringify(port[key]) !== JSON.stringify(before[key])) changes[key] = port[key];
  Object.assign(port, before);
  await task.updatePort(port as never, changes as never);
}

function portAction(what: string, change: (port: Record_, args: OpArgs) => void): Act {
  return async (task, args) => {
    const port = portOf(task, args.port_id);
    const before = structuredClone(port);
    try {
      change(port, args);
      await savePort(task, port, before);
    } catch (err) {
      Object.assign(port, before);
      const msg = `Failed to ${what} ${pyStr(args.path)} for port ${pyStr(args.port_id)}: ${errorText(err)}`;
      log.error(msg);
      throw new RuleActionExecutionFailure({ reason: msg });
    }
  };
}

/** The dict/list at a dotted plugin_data path, or undefined. */
function nestedValue(data: Record_, path: string): unknown {
  let current: unknown = data;
  for (const key of String(path).split('.')) {
    if (!isDict(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return current;
}

function setNested(data: Record_, path: string, value: unknown): void {
  const keys = String(path).split('.');
  let current = data;
  for (const key of keys.slice(0, -1)) {
    if (!Object.hasOwn(current, key)) current[writable(key)] = {};
    const next = current[key];
    if (!isDict(next)) throw new TypeError(`'${typeof next}' object does not support item assignment`);
    current = next;
  }
  current[writable(keys[keys.length - 1])] = value;
}

/** _unset_nested_dict: removing a dict's last key removes the dict from its parent too. */
function unsetNested(data: Record_, path: string): boolean {
  const keys = String(path).split('.');
  let current: unknown = data;
  for (const key of keys.slice(0, -1)) {
    if (!isDict(current) || !Object.hasOwn(current, key)) return false;
    current = current[key];
  }
  const target = keys[keys.length - 1];
  if (!isDict(current) || !Object.hasOwn(current, target)) return false;
  if (Object.keys(current).length === 1) {
    let parent: Record_ = data;
    for (const key of keys.slice(0, -2)) parent = parent[key] as Record_;
    if (keys.length > 1) delete parent[keys[keys.length - 2]];
  } else {
    delete current[target];
  }
  return true;
}

const LOG_LEVELS = ['debug', 'info', 'warning', 'error', 'critical'];

function capabilities(task: Task): string {
  const caps = (task.node.properties ?? {}).capabilities;
  return typeof caps === 'string' ? caps : '';
}

export const ACTION_RUNNERS: ReadonlyMap<string, Act> = new Map<string, Act>([
  ['fail', async (_task, { msg }) => { throw new HardwareInspectionFailure({ error: pyStr(msg) }); }],
  ['set-attribute', failing(({ path, value }) => `Failed to set attribute ${pyStr(path)} with value ${pyStr(value)}`,
    async (task, { path, value }) => { setPath(nodeRecord(task), String(path), value); await task.saveNode(); })],
  ['extend-attribute', failing(({ path }) => `Failed to extend attribute ${pyStr(path)}`,
    async (task, { path, value, unique }) => { extendPath(nodeRecord(task), String(path), value, unique); await task.saveNode(); })],
  ['del-attribute', failing(({ path }) => `Failed to delete attribute at ${pyStr(path)}`,
    async (task, { path }) => { deletePath(nodeRecord(task), String(path)); await task.saveNode(); })],
  ['add-trait', failing(({ name }) => `Failed to add new trait ${pyStr(name)}`,
    async (task, { name }) => { await traits.addTrait(task.ctx.db, task.node.id, String(name)); })],
  ['remove-trait', async (task, { name }) => {
    try {
      await traits.removeTrait(task.ctx.db, task.node.id, String(name));
    } catch (err) {
      if (!isNotFound(err, 'NodeTrait')) throw new RuleActionExecutionFailure({ reason: `Failed to remove trait ${pyStr(name)}: ${errorText(err)}` });
      log.warning(`Failed to remove trait ${pyStr(name)}: ${errorText(err)}`);
    }
  }],
  ['set-capability', failing(({ name }) => `Failed to set capability ${pyStr(name)}`, async (task, { name, value }) => {
    const current = capabilities(task);
    const added = `${pyStr(name)}:${pyStr(value)}`;
    task.node.properties = { ...(task.node.properties ?? {}), capabilities: current ? `${current},${added}` : added };
    await task.saveNode();
  })],
  ['unset-capability', failing(({ name }) => `Failed to unset capability ${pyStr(name)}`, async (task, { name }) => {
    const kept = capabilities(task).split(',').filter((cap) => !cap.startsWith(`${pyStr(name)}:`));
    task.node.properties = { ...(task.node.properties ?? {}), capabilities: kept.join(',') };
    await task.saveNode();
  })],
  ['set-plugin-data', failing(({ path }) => `Failed to set plugin data at ${pyStr(path)}`,
    async (_task, { path, value, plugin_data: data }) => { setNested(data as Record_, String(path), value); })],
  ['extend-plugin-data', failing(({ path }) => `Failed to extend plugin data at ${pyStr(path)}`,
    async (_task, { path, value, plugin_data: data, unique }) => {
      const found = nestedValue(data as Record_, String(path));
      const list = Array.isArray(found) && found.length ? found : [];
      setNested(data as Record_, String(path), list);
      if (!unique || !list.some((v) => pyEquals(v, value))) list.push(value);
    })],
  ['unset-plugin-data', failing(({ path }) => `Failed to unset plugin data at ${pyStr(path)}`,
    async (_task, { path, plugin_data: data }) => {
      if (!unsetNested(data as Record_, String(path))) log.warning(`Path ${pyStr(path)} not found`);
    })],
  ['log', async (_task, { msg, level = 'info' }) => {
    const lvl = String(level).toLowerCase();
    if (!LOG_LEVELS.includes(lvl)) {
      throw new InspectionRuleExecutionFailure({ reason: `Invalid log level: ${lvl}. Choose from ${LOG_LEVELS.join(', ')}` });
    }
    const text = pyStr(msg);
    if (lvl === 'debug') log.debug(text);
    else if (lvl === 'info') log.info(text);
    else if (lvl === 'warning') log.warning(text);
    else log.error(text);
  }],
  ['set-port-attribute', portAction('set attribute', (port, { path, value }) => setPath(port, String(path), value))],
  ['extend-port-attribute', portAction('extend attribute', (port, { path, value, unique }) =>
    extendPath(port, String(path), value, unique))],
  ['del-port-attribute', portAction('delete attribute', (port, { path }) => deletePath(port, String(path)))],
]);
