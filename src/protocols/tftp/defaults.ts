/**
 * Default limits of the TFTP server, shared by its start() options and the
 * [pxe]builtin_tftp_* configuration options (which state durations in seconds).
 */

export const TFTP_DEFAULTS = {
  maxTransfers: 64,
  /** PXE firmware fetches one file at a time; a few spare for retries of a new port. */
  maxTransfersPerClient: 8,
  /** Retransmission timeout when the client does not negotiate one. */
  timeoutMs: 1000,
  /** Largest client timeout option accepted; RFC 2349 allows up to 255 s. */
  maxTimeoutS: 5,
  retries: 5,
  idleMs: 15_000,
  /** Generous: a PXE ramdisk in 512-byte lock-step over a slow link takes minutes. */
  lifetimeMs: 1_800_000,
  /** Ethernet MTU less IP/UDP/TFTP headers (what UEFI PXE asks): larger blocks fragment. */
  maxBlksize: 1468,
  maxWindowsize: 64,
} as const;
