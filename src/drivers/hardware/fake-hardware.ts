/** fake-hardware (drivers/fake_hardware.py): the fake implementation of every kind first. */
import type { HardwareType } from './types';
import { GENERIC_SUPPORTED as G } from './types';

export const FAKE_HARDWARE: HardwareType = {
  name: 'fake-hardware',
  className: 'FakeHardware',
  acceptsAnyInterface: true,
  supported: {
    bios: ['fake', ...G.bios],
    boot: ['fake', ...G.boot],
    console: ['fake', 'fake-graphical', ...G.console],
    deploy: ['fake', ...G.deploy],
    firmware: ['fake', ...G.firmware],
    inspect: ['fake', ...G.inspect],
    management: ['fake'],
    network: [...G.network],
    power: ['fake'],
    raid: ['fake', ...G.raid],
    rescue: ['fake', ...G.rescue],
    storage: ['fake', ...G.storage],
    vendor: ['fake', ...G.vendor],
  },
};
