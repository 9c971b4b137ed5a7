/** Power: reboot (soft unless --hard), power-off (clean shutdown first, as Nova's default), power-on. */
import { seconds, Values } from './args';
import type { ComputeDriver } from '../driver';
import { Command, targetInstance } from './context';
import { nodeSummary, write } from './output';

async function reboot(driver: ComputeDriver, v: Values): Promise<void> {
  const { node, hard } = await driver.reboot(await targetInstance(driver, v), v.hard ? 'hard' : 'soft');
  write(`rebooted (${hard ? 'HARD' : 'SOFT'}): ${nodeSummary(node)}`);
}

/** Nova's compute manager powers off cleanly with [DEFAULT]shutdown_timeout, 60 s by default. */
async function powerOff(driver: ComputeDriver, v: Values): Promise<void> {
  const timeout = seconds(v['shutdown-timeout'], 'shutdown-timeout') ?? 60;
  const { node, soft } = await driver.powerOff(await targetInstance(driver, v), timeout);
  write(`powered off (${soft ? 'soft' : 'hard'}): ${nodeSummary(node)}`);
}

async function powerOn(driver: ComputeDriver, v: Values): Promise<void> {
  write(`powered on: ${nodeSummary(await driver.powerOn(await targetInstance(driver, v)))}`);
}

export const powerCommands: Command[] = [
  { name: 'reboot', usage: 'reboot (--instance UUID | --node N) [--hard]', run: reboot },
  { name: 'power-off', usage: 'power-off (--instance UUID | --node N) [--shutdown-timeout SECONDS (60; 0 = hard)]', run: powerOff },
  { name: 'power-on', usage: 'power-on (--instance UUID | --node N)', run: powerOn },
];
