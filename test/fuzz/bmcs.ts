/**
 * Emulated BMCs for the fixtures' real-driver nodes: a Redfish emulator and a simulated IPMI
 * (lanplus) BMC, both on 127.0.0.1 and both guarded by the fixtures' secret passwords, so driver
 * code (power, boot devices, BIOS, indicators, validation, its errors and logs) runs for real.
 */
import { startRedfishEmulator, RedfishEmulator } from '../../src/emulators/redfish';
import { defaultSessionPool } from '../../src/protocols/ipmi';
import { SimBmc } from '../../src/protocols/ipmi/sim';
import { SECRET } from './secrets';

export const BMC_USER = 'admin';

export interface Bmcs {
  redfishUrl: string;
  ipmiPort: number;
  stop(): Promise<void>;
}

export async function startBmcs(): Promise<Bmcs> {
  const redfish: RedfishEmulator = await startRedfishEmulator({
    systems: ['fz-r', 'fz-ru'], auth: { username: BMC_USER, password: SECRET.redfishPassword }, taskDurationMs: 20,
  });
  const ipmi = new SimBmc({ users: [{ name: BMC_USER, password: SECRET.ipmiPassword, maxPriv: 4 }] });
  await ipmi.start();
  return {
    redfishUrl: redfish.url,
    ipmiPort: ipmi.port,
    async stop() {
      await defaultSessionPool.closeAll();
      await ipmi.stop();
      await redfish.stop();
    },
  };
}
