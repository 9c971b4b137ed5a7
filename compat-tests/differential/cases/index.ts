// Every case group, in run order. Groups create what they need, so any subset can run on its own.
import type { CaseGroup } from '../types';
import { chassisGroup } from './chassis';
import { discovery } from './discovery';
import { conductorsGroup, driversGroup } from './drivers';
import { errors } from './errors';
import { nodeLists } from './node-lists';
import { nodePatch } from './node-patch';
import { nodeStates } from './node-states';
import { nodeSubresources } from './node-subresources';
import { nodesCrud } from './nodes-crud';
import { portgroupsGroup } from './portgroups';
import { portsGroup } from './ports';
import { traitsGroup, vifsGroup } from './traits-vifs';
import { versions } from './versions';

export const ALL_GROUPS: readonly CaseGroup[] = [
  discovery,
  versions,
  errors,
  nodesCrud,
  nodeLists,
  nodePatch,
  chassisGroup,
  portsGroup,
  portgroupsGroup,
  driversGroup,
  conductorsGroup,
  traitsGroup,
  vifsGroup,
  nodeStates,
  nodeSubresources,
];
