/** Rescue and unrescue. */
import { randomBytes } from 'node:crypto';
import type { Values } from './args';
import type { ComputeDriver } from '../driver';
import { Command, targetInstance } from './context';
import { nodeSummary, write } from './output';

/** Nova generates a rescue password when the user gives none, and shows it once. */
async function rescue(driver: ComputeDriver, v: Values): Promise<void> {
  const password = v.password ?? randomBytes(9).toString('base64url');
  const node = await driver.rescue(await targetInstance(driver, v), password);
  write(`rescued: ${nodeSummary(node)}`);
  if (!v.password) write(`rescue password: ${password}`);
}

async function unrescue(driver: ComputeDriver, v: Values): Promise<void> {
  write(`unrescued: ${nodeSummary(await driver.unrescue(await targetInstance(driver, v)))}`);
}

export const rescueCommands: Command[] = [
  { name: 'rescue', usage: 'rescue (--instance UUID | --node N) [--password P]', run: rescue },
  { name: 'unrescue', usage: 'unrescue (--instance UUID | --node N)', run: unrescue },
];
