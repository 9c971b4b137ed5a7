/**
 * What the ssh driver runs on each hypervisor (Ironic's ssh.py _get_command_sets and boot device
 * maps, Newton): the base command, and per operation a template where {name} is the VM's name on
 * the hypervisor, {base} the base command and {device} the hypervisor's boot device word. A
 * template a virt type lacks is an operation it cannot do.
 */
export const VIRT_TYPES = ['vbox', 'virsh', 'vmware', 'parallels', 'xenserver'] as const;
export type VirtType = typeof VIRT_TYPES[number];

export interface CommandSet {
  base: string;
  start: string;
  stop: string;
  reboot?: string;
  /** Every VM's name, one per line. */
  listAll: string;
  /** Running VMs, one per line, the name plain or in double quotes. */
  listRunning: string;
  /** One VM's MACs, one per line. */
  nodeMacs: string;
  /** Whole commands (they start with {base} where they need it). */
  setBootDevice?: string;
  getBootDevice?: string;
}

/** Ironic's boot device -> the hypervisor's word for it. */
type BootDeviceMap = ReadonlyMap<string, string>;

const GENERIC_BOOT_DEVICES: BootDeviceMap = new Map([['disk', 'hd'], ['pxe', 'network'], ['cdrom', 'cdrom']]);

export const BOOT_DEVICE_MAPS: ReadonlyMap<VirtType, BootDeviceMap> = new Map<VirtType, BootDeviceMap>([
  ['virsh', GENERIC_BOOT_DEVICES],
  ['vmware', GENERIC_BOOT_DEVICES],
  ['vbox', new Map([['disk', 'disk'], ['pxe', 'net'], ['cdrom', 'dvd']])],
  ['xenserver', new Map([['disk', 'c'], ['pxe', 'n'], ['cdrom', 'd']])],
  ['parallels', new Map([['disk', 'hdd0'], ['pxe', 'net0'], ['cdrom', 'cdrom0']])],
]);

/** The devices the management interface offers, whatever the virt type (Ironic's generic map). */
export const SUPPORTED_BOOT_DEVICES: readonly string[] = [...GENERIC_BOOT_DEVICES.keys()];

function vbox(headless: boolean): CommandSet {
  return {
    base: 'LC_ALL=C /usr/bin/VBoxManage',
    start: `startvm {name}${headless ? ' --type headless' : ''}`,
    stop: 'controlvm {name} poweroff',
    reboot: 'controlvm {name} reset',
    listAll: `list vms|awk -F'"' '{print $2}'`,
    listRunning: 'list runningvms',
    nodeMacs: `showvminfo --machinereadable {name} | awk -F '"' '/macaddress/{print $2}'`,
    setBootDevice: '{base} modifyvm {name} --boot1 {device}',
    getBootDevice: `{base} showvminfo --machinereadable {name} | awk -F '"' '/boot1/{print $2}'`,
  };
}

function virsh(libvirtUri: string): CommandSet {
  return {
    base: `LC_ALL=C /usr/bin/virsh${libvirtUri ? ` --connect ${libvirtUri}` : ''}`,
    start: 'start {name}',
    stop: 'destroy {name}',
    reboot: 'reset {name}',
    listAll: 'list --all --name',
    listRunning: 'list --name',
    nodeMacs: `dumpxml {name} | awk -F "'" '/mac address/{print $2}' | tr -d ':'`,
    // `virsh edit` with sed as the editor: drop every <boot dev|order>, put one before </os>.
    setBootDevice: `EDITOR="sed -i '/<boot \\(dev\\|order\\)=*\\>/d;/<\\/os>/i\\<boot dev=\\"{device}\\"/>'" {base} edit {name}`,
    // --inactive: the configuration the next boot uses, which `edit` changes on a running domain too.
    getBootDevice: `{base} dumpxml --inactive {name} | awk '/boot dev=/ { gsub( ".*dev=" Q, "" ); gsub( Q ".*", "" ); print; }' Q="'" RS="[<>]" | head -1`,
  };
}

const VMWARE: CommandSet = {
  base: 'LC_ALL=C /bin/vim-cmd',
  start: 'vmsvc/power.on {name}',
  stop: 'vmsvc/power.off {name}',
  reboot: 'vmsvc/power.reboot {name}',
  listAll: `vmsvc/getallvms | awk '$1 ~ /^[0-9]+$/ {print $1}'`,
  // Prints the one VM's id, quoted, when it is on: the running list of one.
  listRunning: `vmsvc/power.getstate {name} | grep 'Powered on' >/dev/null && echo '"{name}"' || true`,
  nodeMacs: `vmsvc/device.getdevices {name} | grep macAddress | awk -F '"' '{print $2}' || true`,
};

const PARALLELS: CommandSet = {
  base: 'LC_ALL=C /usr/bin/prlctl',
  start: 'start {name}',
  stop: 'stop {name} --kill',
  reboot: 'reset {name}',
  listAll: 'list -a -o name |tail -n +2',
  listRunning: 'list -o name |tail -n +2',
  nodeMacs: `list -j -i "{name}" | awk -F'"' '/"mac":/ {print $4}' | ` +
    `sed 's/\\(..\\)\\(..\\)\\(..\\)\\(..\\)\\(..\\)\\(..\\)/\\1:\\2:\\3:\\4:\\5\\6/' | tr '[:upper:]' '[:lower:]'`,
  setBootDevice: '{base} set {name} --device-bootorder "{device}"',
  getBootDevice: `{base} list -i {name} | awk '/^Boot order:/ {print $3}'`,
};

const XENSERVER: CommandSet = {
  base: 'LC_ALL=C /opt/xensource/bin/xe',
  // vm-start may return before the power state reads running.
  start: 'vm-start uuid={name} && sleep 10s',
  stop: 'vm-shutdown uuid={name} force=true',
  listAll: `vm-list --minimal | tr ',' '\\n'`,
  listRunning: `vm-list power-state=running --minimal | tr ',' '\\n'`,
  nodeMacs: `vif-list vm-uuid={name} params=MAC --minimal | tr ',' '\\n'`,
  setBootDevice: `{base} vm-param-set uuid={name} HVM-boot-params:order='{device}'`,
  getBootDevice: '{base} vm-param-get uuid={name} --param-name=HVM-boot-params param-key=order | cut -b 1',
};

export function commandSet(virtType: VirtType, options: { headless: boolean; libvirtUri: string }): CommandSet {
  switch (virtType) {
    case 'vbox': return vbox(options.headless);
    case 'virsh': return virsh(options.libvirtUri);
    case 'vmware': return VMWARE;
    case 'parallels': return PARALLELS;
    case 'xenserver': return XENSERVER;
  }
}

/** A template filled in; a VM name is the hypervisor's own listing, so it is used as listed. */
export function fill(template: string, values: { base: string; name: string; device?: string }): string {
  return template.replaceAll('{base}', values.base).replaceAll('{name}', values.name)
    .replaceAll('{device}', values.device ?? '');
}
