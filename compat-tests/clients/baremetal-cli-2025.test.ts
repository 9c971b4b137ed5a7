/**
 * The `baremetal` CLI (python3-ironicclient, unmodified) against a fresh server: nodes, ports,
 * portgroups, chassis and drivers, each command checked on its output.
 */
// Here with Debian 13's clients (2025.1).
import { DEBIAN13_CLIENTS } from '../support/python';
import { baremetalCliSuite } from './suites/baremetal-cli';

baremetalCliSuite(DEBIAN13_CLIENTS);
