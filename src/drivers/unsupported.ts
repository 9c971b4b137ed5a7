/** The error every "no-*" interface raises (ironic/drivers/modules/noop.py `_fail`). */
import { UnsupportedDriverExtension } from '../common/errors';
import type { DriverTask, InterfaceKind } from './base';

export function unsupported(task: DriverTask, kind: InterfaceKind): never {
  throw new UnsupportedDriverExtension({ driver: task.node.driver, extension: kind });
}
