// One virtual media slot of an emulated BMC (a CD/DVD drive or a floppy/USB stick).

import { badValue, conflict, missingParameter } from './messages';

interface InsertRequest {
  image: string;
  inserted?: boolean;
  writeProtected?: boolean;
  userName?: string;
  transferMethod?: string;
}

const IMAGE_SCHEMES = ['http:', 'https:', 'nfs:', 'cifs:', 'smb:', 'ftp:', 'sftp:', 'scp:', 'tftp:'];
const TRANSFER_METHODS = ['Stream', 'Upload'];

export class VirtualMediaSlot {
  image: string | null = null;
  inserted = false;
  writeProtected = true;
  userName: string | null = null;
  transferMethod = 'Stream';
  insertCount = 0;

  constructor(
    readonly id: string,
    readonly mediaTypes: readonly string[],
  ) {}

  get imageName(): string | null {
    if (this.image === null) return null;
    const path = this.image.split(/[?#]/)[0];
    return path.slice(path.lastIndexOf('/') + 1) || null;
  }

  insert(req: InsertRequest): void {
    validateImage(req.image);
    if (req.transferMethod !== undefined && !TRANSFER_METHODS.includes(req.transferMethod)) {
      throw badValue('TransferMethod', req.transferMethod, TRANSFER_METHODS);
    }
    // Real BMCs refuse to stack media; Ironic ejects before inserting.
    if (this.inserted) throw conflict(`Virtual media ${this.id} already has ${this.image} inserted.`);
    this.image = req.image;
    this.inserted = req.inserted ?? true;
    this.writeProtected = req.writeProtected ?? true;
    this.userName = req.userName ?? null;
    this.transferMethod = req.transferMethod ?? 'Stream';
    this.insertCount += 1;
  }

  /** Ejecting an empty slot is accepted: it leaves the slot in the requested state. */
  eject(): void {
    this.image = null;
    this.inserted = false;
    this.userName = null;
  }
}

function validateImage(image: unknown): asserts image is string {
  if (image === undefined || image === null || image === '') throw missingParameter('Image', 'VirtualMedia.InsertMedia');
  if (typeof image !== 'string') throw badValue('Image', image);
  let scheme: string;
  try {
    scheme = new URL(image).protocol;
  } catch {
    throw badValue('Image', image);
  }
  if (!IMAGE_SCHEMES.includes(scheme)) throw badValue('Image', image);
}

export function defaultVirtualMedia(): Map<string, VirtualMediaSlot> {
  return new Map([
    ['Cd', new VirtualMediaSlot('Cd', ['CD', 'DVD'])],
    ['Floppy', new VirtualMediaSlot('Floppy', ['Floppy', 'USBStick'])],
  ]);
}
