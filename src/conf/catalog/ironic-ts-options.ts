/** Options ironic-ts adds beyond Ironic's catalog; each says why it exists. */
import type { Catalog } from '../registry';

export const EXTRA_OPTIONS: Catalog = {
  DEFAULT: {
    // The firmware interface arrived after Ironic 21.4.4 (API 1.86); same names as upstream.
    enabled_firmware_interfaces: { type: 'list', default: ['no-firmware'] },
    default_firmware_interface: { type: 'string' },
  },
  ipmi: {
    // Selects Debian's ipmitool binary (as Python Ironic runs it) instead of the built-in IPMI client.
    use_ipmitool_binary: { type: 'bool', default: false },
  },
  api: {
    // Largest request body for any endpoint but provisioning (Ironic's json_depth middleware limit).
    max_json_body_size: { type: 'int', default: 1048576, min: 0 },
    // Provisioning bodies carry configdrives (64 MiB, as Ironic allows).
    max_json_body_size_provision: { type: 'int', default: 67108864, min: 0 },
  },
};
