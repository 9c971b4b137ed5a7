/**
 * The managed-system side of a simulated BMC: power state, boot flags and identity, answering
 * chassis/app commands as a real BMC would (IPMI 2.0 sections 20 and 28).
 */
interface CommandResult {
  cc: number;
  data: Buffer;
}

const OK = (data: number[] = []): CommandResult => ({ cc: 0, data: Buffer.from(data) });
const CC = (cc: number): CommandResult => ({ cc, data: Buffer.alloc(0) });

export class BmcModel {
  power: 'on' | 'off' = 'off';
  /** Boot flags parameter 5 as the last Set System Boot Options left it. */
  bootFlags: Buffer = Buffer.from([0x00, 0x00, 0x00, 0x00, 0x00]);
  diagInterrupts = 0;
  resets = 0;
  readonly acks: number[][] = [];

  /** privilege: 1 callback .. 4 administrator, as negotiated on the session. */
  handle(netFn: number, cmd: number, data: Buffer, privilege: number): CommandResult {
    if (netFn === 0x06 && cmd === 0x01) return this.deviceId();
    if (netFn !== 0x00) return CC(0xc1);
    switch (cmd) {
      case 0x01:
        return OK([this.power === 'on' ? 0x01 : 0x00, 0x00, 0x00, 0x00]);
      case 0x02:
        return privilege < 3 ? CC(0xd4) : this.control(data);
      case 0x08:
        return privilege < 3 ? CC(0xd4) : this.setBootOption(data);
      case 0x09:
        return this.getBootOption(data);
      default:
        return CC(0xc1);
    }
  }

  private deviceId(): CommandResult {
    // device 0x20 rev 1, fw 1.05, IPMI 2.0, chassis+SDR support, manufacturer 0x0002a2, product 0x0101
    return OK([0x20, 0x01, 0x01, 0x05, 0x02, 0x81, 0xa2, 0x02, 0x00, 0x01, 0x01, 0, 0, 0, 0]);
  }

  private control(data: Buffer): CommandResult {
    if (data.length < 1) return CC(0xc7);
    switch (data[0] & 0x0f) {
      case 0:
      case 5:
        this.power = 'off';
        return OK();
      case 1:
      case 2:
        this.power = 'on';
        return OK();
      case 3:
        this.resets += 1;
        return OK();
      case 4:
        this.diagInterrupts += 1;
        return OK();
      default:
        return CC(0xcc);
    }
  }

  private setBootOption(data: Buffer): CommandResult {
    if (data.length < 1) return CC(0xc7);
    const param = data[0] & 0x7f;
    if (param === 0 || param === 3) return OK();
    if (param === 4) {
      this.acks.push([...data.subarray(1)]);
      return OK();
    }
    if (param !== 5) return CC(0x80);
    if (data.length < 6) return CC(0xc7);
    this.bootFlags = Buffer.from(data.subarray(1, 6));
    return OK();
  }

  private getBootOption(data: Buffer): CommandResult {
    if (data.length < 3) return CC(0xc7);
    const param = data[0] & 0x7f;
    if (param === 5) return OK([0x01, 0x05, ...this.bootFlags]);
    if (param === 0 || param === 3 || param === 4) return OK([0x01, param, 0x00]);
    return CC(0x80);
  }
}
