/**
 * `openstack baremetal` (python3-openstackclient with the ironicclient plugin, unmodified): the same
 * command groups through OSC's own argument handling and output formatting.
 */
// Here with Debian 12's clients (2023.1).
import { DEBIAN12_CLIENTS } from '../support/python';
import { openstackCliSuite } from './suites/openstack-cli';

openstackCliSuite(DEBIAN12_CLIENTS);
