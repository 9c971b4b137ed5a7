/** The same scenario as ipmi-cli.test.ts with [ipmi]use_ipmitool_binary = true (Debian's ipmitool). */
import { ipmiCliSuite } from '../support/ipmi-cli-suite';

ipmiCliSuite(true);
