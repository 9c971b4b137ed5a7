// The Nova ironic virt driver lifecycle (lifecycle-suite.ts) with Debian 12's Nova 26.
import { novaLifecycleSuite } from './lifecycle-suite';

novaLifecycleSuite('nova-26');
