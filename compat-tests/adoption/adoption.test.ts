// Adoption and rollback (adoption-suite.ts) with Ironic 21.4.4's database.
import { adoptionSuite } from './adoption-suite';

adoptionSuite('2023.1');
