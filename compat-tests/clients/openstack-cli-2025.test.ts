/**
 * `openstack baremetal` (python3-openstackclient with the ironicclient plugin, unmodified): the same
 * command groups through OSC's own argument handling and output formatting.
 */
// Here with Debian 13's clients (2025.1).
import { DEBIAN13_CLIENTS } from '../support/python';
import { openstackCliSuite } from './suites/openstack-cli';

openstackCliSuite(DEBIAN13_CLIENTS);
