/** The ipmi hardware type through the baremetal CLI, conductor on the built-in IPMI client. */
import { ipmiCliSuite } from '../support/ipmi-cli-suite';

ipmiCliSuite(false);
