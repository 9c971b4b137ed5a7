/** Read-only views: list, show (get_info), console, resources (get_available_nodes/resource). */
import type { Values } from './args';
import { ComputeDriver } from '../driver';
import { instanceNotFound } from '../errors';
import { Command, targetInstance } from './context';
import { nodeSummary, write } from './output';

async function list(driver: ComputeDriver): Promise<void> {
  const rows = (await driver.getAvailableNodes()).map((n) =>
    [n.uuid, n.name ?? '', n.instance_uuid ?? '-', n.provision_state ?? 'None', n.power_state ?? 'None'].join('\t'));
  write(['UUID\tNAME\tINSTANCE\tPROVISION\tPOWER', ...rows].join('\n'));
}

async function show(driver: ComputeDriver, v: Values): Promise<void> {
  const instanceUuid = await targetInstance(driver, v);
  const info = await driver.getInfo(instanceUuid);
  if (!info) throw instanceNotFound(instanceUuid);
  const n = await driver.client.getNode(info.node);
  if (v.json) {
    write(JSON.stringify({ instance_uuid: instanceUuid, state: info.state, state_name: info.stateName, node: n }, null, 2));
    return;
  }
  write(`instance ${instanceUuid} state=${info.stateName} (${info.state})`);
  write(nodeSummary(n));
  write(`last_error: ${n.last_error ?? 'None'}`);
  write(`vifs: ${(await driver.client.listVifs(n.uuid)).join(', ') || 'none'}`);
}

async function consoleInfo(driver: ComputeDriver, v: Values): Promise<void> {
  const c = await driver.getConsole(await targetInstance(driver, v), Boolean(v.enable));
  write(`console: node ${c.node} type=${c.type ?? 'None'} url=${c.url ?? 'None'}`);
  if (c.serial) write(`serial: ${c.serial.host}:${c.serial.port}`);
}

async function resources(driver: ComputeDriver, v: Values): Promise<void> {
  const nodes = v.node ? [await driver.client.getNode(v.node)] : await driver.getAvailableNodes();
  const out = await Promise.all(nodes.map((n) => driver.getAvailableResource(n.uuid)));
  if (v.json || v.node) {
    write(JSON.stringify(v.node ? out[0] : out, null, 2));
    return;
  }
  write('UUID\tRESOURCE_CLASS\tINVENTORY\tSCHEDULABLE\tCPU_ARCH');
  for (const [i, r] of out.entries()) {
    const inv = Object.entries(r.inventory).map(([rc, x]) => `${rc}=${x.total}(reserved ${x.reserved})`).join(' ') || '-';
    write([r.resource.uuid, r.resource.resource_class ?? 'None', inv, ComputeDriver.isSchedulable(nodes[i]) ? 'yes' : 'no', r.resource.stats.cpu_arch ?? 'None'].join('\t'));
  }
}

export const infoCommands: Command[] = [
  { name: 'list', usage: 'list', run: list },
  { name: 'show', usage: 'show (--instance UUID | --node N) [--json]', run: show },
  { name: 'console', usage: 'console (--instance UUID | --node N) [--enable]', run: consoleInfo },
  { name: 'resources', usage: 'resources [--node N] [--json]', run: resources },
];
