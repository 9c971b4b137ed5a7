/**
 * openstacksdk's baremetal proxy (python3-openstacksdk, unmodified) with its own microversion
 * negotiation: nodes, ports, chassis and drivers.
 */
// Here with Debian 13's clients (2025.1).
import { DEBIAN13_CLIENTS } from '../support/python';
import { sdkSuite } from './suites/sdk';

sdkSuite(DEBIAN13_CLIENTS);
