/** Interfaces: attach and detach a VIF (a Neutron port id) on the instance's node. */
import { required, Values } from './args';
import type { ComputeDriver } from '../driver';
import { Command, targetInstance } from './context';
import { write } from './output';

async function attach(driver: ComputeDriver, v: Values): Promise<void> {
  const vif = required(v, 'vif');
  const vifs = await driver.attachInterface(await targetInstance(driver, v), vif);
  write(`attached: vif ${vif}; node vifs: ${vifs.join(', ') || 'none'}`);
}

async function detach(driver: ComputeDriver, v: Values): Promise<void> {
  const vif = required(v, 'vif');
  const vifs = await driver.detachInterface(await targetInstance(driver, v), vif);
  write(`detached: vif ${vif}; node vifs: ${vifs.join(', ') || 'none'}`);
}

export const networkCommands: Command[] = [
  { name: 'attach-interface', usage: 'attach-interface (--instance UUID | --node N) --vif PORT_ID', run: attach },
  { name: 'detach-interface', usage: 'detach-interface (--instance UUID | --node N) --vif PORT_ID', run: detach },
];
