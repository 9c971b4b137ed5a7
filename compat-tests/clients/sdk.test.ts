/**
 * openstacksdk's baremetal proxy (python3-openstacksdk, unmodified) with its own microversion
 * negotiation: nodes, ports, chassis and drivers.
 */
// Here with Debian 12's clients (2023.1).
import { DEBIAN12_CLIENTS } from '../support/python';
import { sdkSuite } from './suites/sdk';

sdkSuite(DEBIAN12_CLIENTS);
