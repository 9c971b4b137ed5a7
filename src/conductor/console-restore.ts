/**
 * base_manager._start_consoles: when a conductor starts, the consoles of its nodes that have
 * console_enabled are started again (socat does not survive a reboot of the host, and a restart
 * may have moved nodes here). A console that fails to start is recorded as a startup failure and
 * console_enabled goes back to False, as Ironic does.
 */
import { NodeLocked } from '../common/errors';
import { errorText } from './error-handlers';
import { log } from '../common/log';
import { HISTORY_STARTFAIL } from '../common/states';
import { isNotFound } from '../db/errors';
import { scanNodes } from '../db/repositories/nodes';
import type { RingManager } from '../rpc/ring-manager';
import type { ConductorManager } from './manager';

export async function startConsoles(manager: ConductorManager, rings: RingManager): Promise<void> {
  const { ctx } = manager;
  for (const node of await scanNodes(ctx.db, { consoleEnabled: true })) {
    if (!(await rings.isMine(ctx.host, node))) continue;
    try {
      await manager.tasks.run(node.uuid, { purpose: 'start console', retry: false }, async (task) => {
        try {
          log.debug(`Trying to start console of node ${node.uuid}`);
          await task.driver.console.startConsole(task);
          log.info(`Successfully started console of node ${node.uuid}`);
        } catch (err) {
          const msg = `Failed to start console of node ${node.uuid} while starting the conductor, so changing the ` +
            `console_enabled status to False, error: ${errorText(err)}`;
          log.error(msg);
          await task.recordHistory(msg, HISTORY_STARTFAIL, true);
          task.node.console_enabled = false;
          await task.saveNode();
        }
      });
    } catch (err) {
      if (err instanceof NodeLocked) log.warning(`Node ${node.uuid} is locked while trying to start console on conductor startup`);
      else if (isNotFound(err, 'Node')) log.warning(`During starting console on conductor startup, node ${node.uuid} was not found`);
      else throw err;
    }
  }
}
