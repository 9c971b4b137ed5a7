/**
 * The boot_iscsi entry's options (pxe_utils.get_volume_pxe_options): iPXE's SAN URL of the boot
 * volume, built from the connection data stored in its target (target_portal(s), target_iqn,
 * target_lun), its CHAP credentials, the node's initiator IQN, and the node's other iSCSI
 * volumes to hook as further drives.
 */

type Properties = Record<string, unknown>;

/** One more iSCSI volume hooked before booting; `drive` is its BIOS drive number (0x81...). */
interface ExtraIscsiVolume {
  url: string;
  username: unknown;
  password: unknown;
  drive: string;
}

export interface IscsiBootOptions {
  boot_from_volume: true;
  iscsi_boot_url: string;
  iscsi_initiator_iqn: string | null;
  username?: unknown;
  password?: unknown;
  iscsi_volumes: ExtraIscsiVolume[];
}

export interface VolumeTargetView {
  volume_type: string | null;
  boot_index: number | null;
  properties: Properties | null;
}

/** A KeyError as Python raises it for a missing key (the message is the quoted key). */
class KeyError extends Error {
  override readonly name = 'KeyError';
  constructor(key: string) {
    super(`'${key}'`);
  }
}

const firstIfList = (item: unknown): unknown => (Array.isArray(item) ? item[0] : item);

/** `key`, else the first of its plural (target_portal, then target_portals[0]). */
function property(props: Properties, key: string): unknown {
  const value = firstIfList(Object.hasOwn(props, key) ? props[key] : '');
  if (value !== '') return value;
  return firstIfList(Object.hasOwn(props, `${key}s`) ? props[`${key}s`] : '');
}

/** oslo netutils.parse_host_port without a default port: [v6]:port, host:port, bare v6, host. */
function parseHostPort(address: string): [string, string] {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(address);
  if (bracketed) return [bracketed[1], bracketed[2] ?? ''];
  const colons = address.split(':').length - 1;
  if (colons === 1) {
    const [host, port] = address.split(':');
    return [host, port];
  }
  return [address, ''];
}

/** %x of the LUN, as Python formats an int in hex. */
function hexLun(lun: unknown): string {
  const n = Number(lun);
  if (!Number.isInteger(n)) throw new TypeError(`%x format: an integer is required, not ${typeof lun}`);
  return n < 0 ? `-${(-n).toString(16)}` : n.toString(16);
}

function formatPortal(portal: unknown, iqn: unknown, lun: unknown): string {
  const [host, port] = parseHostPort(String(portal));
  return `iscsi:${host}::${port}:${hexLun(lun)}:${String(iqn)}`;
}

/** iPXE's iscsi: URL(s) of a target: one per portal, space separated. */
export function iscsiUrl(props: Properties): string {
  const iqn = property(props, 'target_iqn');
  const lun = property(props, 'target_lun');
  if (Object.hasOwn(props, 'target_portals')) {
    const portals = props.target_portals;
    return (Array.isArray(portals) ? portals : []).map((p) => formatPortal(p, iqn, lun)).join(' ');
  }
  return formatPortal(property(props, 'target_portal'), iqn, lun);
}

function requireKey(props: Properties, key: string): unknown {
  if (!Object.hasOwn(props, key)) throw new KeyError(key);
  return props[key];
}

/**
 * Options for an iSCSI boot volume; null for another volume type. `initiatorIqns` are the
 * node's iqn connectors in order (the last one is used, as Ironic's loop leaves it).
 */
export function iscsiBootOptions(boot: VolumeTargetView, others: readonly VolumeTargetView[],
  initiatorIqns: readonly string[]): IscsiBootOptions | null {
  if (!String(boot.volume_type ?? '').includes('iscsi')) return null;
  const props = boot.properties ?? {};
  const options: IscsiBootOptions = {
    boot_from_volume: true,
    iscsi_boot_url: iscsiUrl(props),
    iscsi_initiator_iqn: initiatorIqns.length ? initiatorIqns[initiatorIqns.length - 1] : null,
    iscsi_volumes: [],
  };
  if (Object.hasOwn(props, 'auth_username')) options.username = props.auth_username;
  if (Object.hasOwn(props, 'auth_password')) options.password = props.auth_password;
  for (const target of others) {
    if (target.boot_index === 0 || !String(target.volume_type ?? '').includes('iscsi')) continue;
    const tprops = target.properties ?? {};
    options.iscsi_volumes.push({
      url: iscsiUrl(tprops),
      username: requireKey(tprops, 'auth_username'),
      password: requireKey(tprops, 'auth_password'),
      drive: `0x${(129 + options.iscsi_volumes.length).toString(16)}`,
    });
  }
  return options;
}
