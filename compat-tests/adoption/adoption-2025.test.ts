// Adoption and rollback (adoption-suite.ts) with Ironic 29.0.5's database.
import { adoptionSuite } from './adoption-suite';

adoptionSuite('2025.1');
