/**
 * The `baremetal` CLI (python3-ironicclient, unmodified) against a fresh server: nodes, ports,
 * portgroups, chassis and drivers, each command checked on its output.
 */
// Here with Debian 12's clients (2023.1).
import { DEBIAN12_CLIENTS } from '../support/python';
import { baremetalCliSuite } from './suites/baremetal-cli';

baremetalCliSuite(DEBIAN12_CLIENTS);
