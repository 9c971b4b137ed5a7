// Every case group, in run order. Groups create what they need, so any subset can run on its own.
import type { CaseGroup } from '../types';
import { discovery } from './discovery';
import { errors } from './errors';
import { versions } from './versions';

export const ALL_GROUPS: readonly CaseGroup[] = [discovery, versions, errors];
