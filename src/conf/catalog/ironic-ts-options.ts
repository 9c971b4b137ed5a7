/** Options ironic-ts adds beyond Ironic's catalog; each says why it exists. */
import type { Catalog } from '../option-spec';
import { TFTP_DEFAULTS } from '../../protocols/tftp/defaults';
import { MAX_BLKSIZE } from '../../protocols/tftp/options';

export const EXTRA_OPTIONS = {
  DEFAULT: {
    // The firmware interface arrived after Ironic 21.4.4 (API 1.86); same names as upstream.
    enabled_firmware_interfaces: { type: 'list', default: ['no-firmware'] },
    default_firmware_interface: { type: 'string' },
  },
  conductor: {
    // Servicing (service wait) arrived after Ironic 21.4.4; same name and default as upstream.
    service_callback_timeout: { type: 'int', default: 1800, min: 0 },
    // Later options of Ironic 2025.1, with its names and defaults: powering off nodes that failed
    // servicing, and the longest pause a `wait` step may ask for.
    poweroff_in_servicefail: { type: 'bool', default: false },
    max_conductor_wait_step_seconds: { type: 'int', default: 30, min: 0, max: 1800 },
    // Ironic 2025.1: a step run on child nodes may return the flow's wait state without failing the parent.
    permit_child_node_step_async_result: { type: 'bool', default: false },
  },
  ipmi: {
    // Selects Debian's ipmitool binary (as Python Ironic runs it) instead of the built-in IPMI client.
    use_ipmitool_binary: { type: 'bool', default: false },
  },
  pxe: {
    // Serve [pxe]tftp_root from the conductor with the built-in TFTP server (instead of tftpd-hpa).
    // Off by default: port 69 needs privileges and most sites already run a TFTP daemon.
    builtin_tftp_server: { type: 'bool', default: false },
    builtin_tftp_host: { type: 'string', default: '0.0.0.0' },
    builtin_tftp_port: { type: 'port', default: 69 },
    // Limits of the built-in TFTP server: anyone who can reach the port opens transfers with one
    // unauthenticated packet, so how many and for how long must be bounded (durations in seconds).
    builtin_tftp_max_transfers: { type: 'int', default: TFTP_DEFAULTS.maxTransfers, min: 1 },
    builtin_tftp_max_transfers_per_client: { type: 'int', default: TFTP_DEFAULTS.maxTransfersPerClient, min: 1 },
    // Largest timeout option (RFC 2349) a client may negotiate; a larger one is declined.
    builtin_tftp_max_timeout: { type: 'int', default: TFTP_DEFAULTS.maxTimeoutS, min: 1, max: 255 },
    builtin_tftp_retries: { type: 'int', default: TFTP_DEFAULTS.retries, min: 0 },
    // A transfer with no ACK moving it on for this long is dropped, whatever timeout it negotiated.
    builtin_tftp_idle_timeout: { type: 'int', default: TFTP_DEFAULTS.idleMs / 1000, min: 1 },
    builtin_tftp_max_lifetime: { type: 'int', default: TFTP_DEFAULTS.lifetimeMs / 1000, min: 1 },
    builtin_tftp_max_blksize: { type: 'int', default: TFTP_DEFAULTS.maxBlksize, min: 8, max: MAX_BLKSIZE },
    builtin_tftp_max_windowsize: { type: 'int', default: TFTP_DEFAULTS.maxWindowsize, min: 1, max: 65535 },
  },
  deploy: {
    // Serve [deploy]http_root (iPXE scripts, kernels, images) from the conductor's built-in HTTP
    // server (instead of nginx/apache). Off by default, like the TFTP server.
    builtin_http_server: { type: 'bool', default: false },
    builtin_http_host: { type: 'string', default: '0.0.0.0' },
    builtin_http_port: { type: 'port', default: 8080 },
  },
  neutron: {
    // Servicing networks and the disable_power_off check of Ironic 2025.1, with its names and defaults.
    servicing_network: { type: 'string' },
    servicing_network_security_groups: { type: 'list', default: [] },
    allow_disabling_power_off: { type: 'bool', default: false },
  },
  dnsmasq: {
    // The dnsmasq DHCP provider ([dhcp]dhcp_provider = dnsmasq) arrived after Ironic 21.4.4; same names as upstream.
    dhcp_optsdir: { type: 'string', default: '/etc/dnsmasq.d/optsdir.d' },
    dhcp_hostsdir: { type: 'string', default: '/etc/dnsmasq.d/hostsdir.d' },
    dhcp_leasefile: { type: 'string', default: '/var/lib/dnsmasq/dnsmasq.leases' },
    // ironic-ts extra: dnsmasq's pid file, so deletions are picked up at once (SIGHUP).
    pid_file: { type: 'string' },
  },
  iscsi: {
    // The iscsi deploy interface (src/drivers/deploy/iscsi.ts), which Ironic dropped in Xena. Its
    // portal_port, with Ironic's name and default, is the port of the ramdisk's target.
    portal_port: { type: 'port', default: 3260 },
    // Where the conductor listens for the deploy ramdisk's "ready" POST (the design's deploy helper),
    // and the port of the ramdisk it tells "done" once the disk is written.
    deploy_helper_host: { type: 'string', default: '0.0.0.0' },
    deploy_helper_port: { type: 'port', default: 10000 },
    ramdisk_port: { type: 'port', default: 10000 },
    // Seconds one write to the target may take before the deploy fails (a target that stops answering).
    write_timeout: { type: 'int', default: 1800, min: 1 },
    // The disks the ramdisk may export, first found wins (the kernel line's disk=; Ironic's old
    // [pxe]disk_devices and its default).
    disk_devices: { type: 'string', default: 'cciss/c0d0,sda,hda,vda' },
    // Which initiator writes the ramdisk's disk (Ironic had only the kernel's): QEMU's userspace one
    // (qemu-img with libiscsi, no kernel support needed), open-iscsi's iscsiadm with the kernel's
    // (discovery, login, the /dev/disk/by-path device, logout, delete, as Ironic did), or `auto`:
    // iscsiadm when it is installed and the kernel's iscsi_tcp transport is loaded, else qemu-img.
    initiator: { type: 'string', default: 'qemu-img', choices: ['qemu-img', 'iscsiadm', 'auto'] },
    // Ironic's [iscsi]verify_attempts (its default 3): how many times, a second apart, the iscsiadm
    // path looks for the logged-in session and then for the LUN's device node.
    verify_attempts: { type: 'int', default: 3, min: 1 },
  },
  ssh: {
    // The ssh power and management interfaces (src/drivers/ssh/), which Ironic dropped in Pike:
    // its [ssh] options with their names and defaults.
    libvirt_uri: { type: 'string', default: 'qemu:///system' },
    get_vm_name_attempts: { type: 'int', default: 3, min: 1 },
    get_vm_name_retry_interval: { type: 'int', default: 3, min: 0 },
    // Beyond Ironic (whose driver accepted any host key): the server's host key must be listed in
    // this OpenSSH known_hosts file, or match driver_info ssh_host_key_fingerprint; turning the
    // check off restores Ironic's behaviour and is logged.
    known_hosts_file: { type: 'string', default: '/etc/ironic/ssh_known_hosts' },
    strict_host_key_checking: { type: 'bool', default: true },
    // Seconds to connect and authenticate, and for one hypervisor command to finish.
    connection_timeout: { type: 'int', default: 10, min: 1 },
    command_timeout: { type: 'int', default: 60, min: 1 },
  },
  keystone_authtoken: {
    // keystoneauth's `password` plugin options, which oslo registers only once auth_type is read;
    // ironic-ts's Keystone token client (src/auth/keystone-client.ts) reads them from here.
    auth_url: { type: 'string' },
    username: { type: 'string' },
    user_id: { type: 'string' },
    password: { type: 'string', secret: true },
    project_name: { type: 'string' },
    project_id: { type: 'string' },
    user_domain_name: { type: 'string' },
    user_domain_id: { type: 'string' },
    project_domain_name: { type: 'string' },
    project_domain_id: { type: 'string' },
    system_scope: { type: 'string' },
    default_domain_id: { type: 'string' },
    default_domain_name: { type: 'string' },
  },
  ssl: {
    // oslo.service's [ssl] options (sslutils), which Ironic's API ([api]enable_ssl_api) and
    // JSON-RPC ([json_rpc]use_ssl) servers are wrapped with; same names, no defaults.
    ca_file: { type: 'string' },
    cert_file: { type: 'string' },
    key_file: { type: 'string' },
    version: { type: 'string' },
    ciphers: { type: 'string' },
  },
  json_rpc: {
    // ironic_lib's [json_rpc] options (rpc_transport = json-rpc), which Ironic registers from ironic_lib
    // rather than its own catalog; same names and defaults, timeout set to 120 as Ironic does.
    auth_strategy: { type: 'string', choices: ['noauth', 'keystone', 'http_basic'] },
    http_basic_auth_user_file: { type: 'string', default: '/etc/ironic/htpasswd-json-rpc' },
    host_ip: { type: 'string', default: '::' },
    port: { type: 'port', default: 8089, min: 0, max: 65535 },
    use_ssl: { type: 'bool', default: false },
    http_basic_username: { type: 'string' },
    http_basic_password: { type: 'string', secret: true },
    allowed_roles: { type: 'list', default: ['admin'] },
    // keystoneauth session and auth options (ironic_lib.keystone.register_auth_opts).
    auth_type: { type: 'string', deprecated: ['json_rpc.auth_plugin'] },
    auth_section: { type: 'string' },
    auth_url: { type: 'string' },
    username: { type: 'string', deprecated: ['json_rpc.user_name'] },
    user_id: { type: 'string' },
    password: { type: 'string', secret: true },
    project_name: { type: 'string', deprecated: ['json_rpc.tenant_name'] },
    project_id: { type: 'string', deprecated: ['json_rpc.tenant_id'] },
    user_domain_name: { type: 'string' },
    user_domain_id: { type: 'string' },
    project_domain_name: { type: 'string' },
    project_domain_id: { type: 'string' },
    system_scope: { type: 'string' },
    cafile: { type: 'string' },
    certfile: { type: 'string' },
    keyfile: { type: 'string' },
    insecure: { type: 'bool', default: false },
    timeout: { type: 'int', default: 120 },
    collect_timing: { type: 'bool', default: false },
    split_loggers: { type: 'bool', default: false },
    // ironic-ts extra: the JSON-RPC server refuses noauth on a non-loopback host_ip unless this is set.
    allow_insecure_noauth: { type: 'bool', default: false },
  },
  api: {
    // Steps operators forbid, as Debian's Ironic 2025.1 has them (a security update), with its defaults.
    disallow_clean_steps: { type: 'list', default: ['vendor.send_raw'] },
    disallow_deploy_steps: { type: 'list', default: ['vendor.send_raw'] },
    disallow_service_steps: { type: 'list', default: ['vendor.send_raw'] },
    // Largest request body for any endpoint but provisioning (Ironic's json_depth middleware limit).
    max_json_body_size: { type: 'int', default: 1048576, min: 0 },
    // Provisioning bodies carry configdrives (64 MiB, as Ironic allows).
    max_json_body_size_provision: { type: 'int', default: 67108864, min: 0 },
    // ironic-ts extra: the API refuses [DEFAULT]auth_strategy = noauth on a non-loopback host_ip
    // unless this is set (then it warns at start): anyone on the network would own the fleet.
    allow_insecure_noauth: { type: 'bool', default: false },
  },
  // Ironic 2025.1's in-band inspection (the agent inspect interface and its hooks), auto-discovery
  // and inspection rules arrived after Ironic 21.4.4; same names and defaults as upstream.
  inspector: {
    // Unset: each inspect interface picks (inspector False, agent True), as in 2025.1.
    require_managed_boot: { type: 'bool' },
    add_ports: { type: 'string', default: 'pxe', choices: ['all', 'active', 'pxe', 'disabled'] },
    keep_ports: { type: 'string', default: 'all', choices: ['all', 'present', 'added'] },
    update_pxe_enabled: { type: 'bool', default: true },
    default_hooks: { type: 'string', default: 'ramdisk-error,validate-interfaces,ports,architecture' },
    hooks: { type: 'string', default: '$default_hooks' },
    cpu_capabilities: {
      type: 'dict',
      default: { vmx: 'cpu_vt', svm: 'cpu_vt', aes: 'cpu_aes', pse: 'cpu_hugepages', pdpe1gb: 'cpu_hugepages_1g', smx: 'cpu_txt' },
    },
    pci_device_alias: { type: 'multistring', default: [] },
    physical_network_cidr_map: { type: 'list', default: [] },
    disk_partitioning_spacing: { type: 'bool', default: true },
    extra_hardware_strict: { type: 'bool', default: false },
    // Upstream's default names the data file shipped inside Ironic's package; ironic-ts ships its copy in templates/.
    known_accelerators: { type: 'string', default: '$pybasedir/templates/known_accelerators.yaml' },
  },
  metrics: {
    // Ironic 2025.1's own metrics options (ironic/conf/metrics.py; ironic-lib's before), same names and defaults.
    backend: { type: 'string', default: 'noop', choices: ['noop', 'statsd', 'collector'] },
    prepend_host: { type: 'bool', default: false },
    prepend_host_reverse: { type: 'bool', default: true },
    global_prefix: { type: 'string' },
  },
  metrics_statsd: {
    statsd_host: { type: 'string', default: 'localhost' },
    statsd_port: { type: 'port', default: 8125, min: 0, max: 65535 },
  },
  prometheus: {
    // ironic-ts extra: a Prometheus text endpoint (GET /metrics) in each API and conductor process.
    // Off by default; on loopback unless the operator names another address.
    enabled: { type: 'bool', default: false },
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'port', default: 9608, min: 0, max: 65535 },
    // Who may read it: anyone who reaches it (noauth), or the users of an htpasswd file (bcrypt).
    auth_strategy: { type: 'string', default: 'noauth', choices: ['noauth', 'http_basic'] },
    http_basic_auth_user_file: { type: 'string', default: '/etc/ironic/htpasswd-metrics' },
    // noauth on a non-loopback host is refused unless this is set (then it warns at start).
    allow_insecure_noauth: { type: 'bool', default: false },
  },
  auto_discovery: {
    enabled: { type: 'bool', default: false },
    driver: { type: 'string' },
    inspection_scope: { type: 'string' },
  },
  // ironic-ts's lab mode: one provisioning network served by this conductor alone. Naming the
  // interface makes the conductor run and supervise dnsmasq for DHCP on it, serve TFTP and HTTP
  // itself and enable ipmi, redfish, ipxe/pxe boot and the direct deploy (src/conf/lab.ts applies
  // the defaults, src/dhcp/dnsmasq-supervisor.ts runs dnsmasq). Unset: no lab mode.
  lab: {
    provisioning_interface: { type: 'string' },
    // dnsmasq's dhcp-range; unset: the upper half of the interface's IPv4 subnet.
    dhcp_range: { type: 'string' },
    dhcp_lease_time: { type: 'string', default: '1h' },
    dnsmasq_binary: { type: 'string', default: '/usr/sbin/dnsmasq' },
    // Where iPXE's network boot programs are (Debian's `ipxe` package), copied into tftp_root.
    ipxe_dir: { type: 'string', default: '/usr/lib/ipxe' },
  },
  inspection_rules: {
    built_in_rules: { type: 'string' },
    mask_secrets: { type: 'string', default: 'always', choices: ['always', 'never', 'sensitive'] },
  },
  // The web dashboard and the node event stream (src/dashboard/), served by the API process outside
  // /v1: sessions, stream limits and the console relay. Durations in seconds.
  dashboard: {
    // Serve /dashboard/ and /events/ at all; off leaves the API exactly as Ironic's.
    enabled: { type: 'bool', default: true },
    // A session ends after this long without a request, and in any case after session_max_age
    // (or when its Keystone token expires, if sooner).
    session_idle_timeout: { type: 'int', default: 1800, min: 60 },
    session_max_age: { type: 'int', default: 43200, min: 60 },
    // Sessions kept at once; the oldest go first when a login would exceed it.
    max_sessions: { type: 'int', default: 10000, min: 1 },
    // How often the one change-feed reader per API process polls the database while any client listens.
    event_poll_interval_ms: { type: 'int', default: 250, min: 50, max: 10000 },
    // Events per node and type are coalesced into one per flush interval (the latest values).
    event_flush_interval_ms: { type: 'int', default: 250, min: 50, max: 10000 },
    // A write stamped up to this long before the newest one seen is still picked up (commit lag,
    // clocks of several conductors); a full comparison every event_resync_interval catches the rest.
    event_feed_slack: { type: 'int', default: 2, min: 0, max: 60 },
    event_resync_interval: { type: 'int', default: 30, min: 5 },
    // Bytes a stream client may leave unread in the server's buffer before it is cut off.
    event_client_buffer_bytes: { type: 'int', default: 262144, min: 4096 },
    event_heartbeat_interval: { type: 'int', default: 15, min: 1 },
    // Open streams per authenticated user and per client address (an IPv6 /64).
    event_max_streams_per_user: { type: 'int', default: 16, min: 1 },
    event_max_streams_per_address: { type: 'int', default: 64, min: 1 },
    // Open console WebSockets per node: socat serves one client at a time, and opening another
    // would end the first one's SOL session (get_console deactivates it).
    console_max_clients_per_node: { type: 'int', default: 1, min: 1 },
  },
} satisfies Catalog;
