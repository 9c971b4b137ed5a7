// The Nova ironic virt driver lifecycle (lifecycle-suite.ts) with Debian 13's Nova 31 (openstacksdk-based driver), run in the Debian 13 root.
import { novaLifecycleSuite } from './lifecycle-suite';

novaLifecycleSuite('nova-31');
