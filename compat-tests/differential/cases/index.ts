// Every case group, in run order. Groups create what they need, so any subset can run on its own.
import type { CaseGroup } from '../types';
import { agentEventsGroup } from './agent-events';
import { allocationsGroup } from './allocations';
import { chassisGroup } from './chassis';
import { cleaningGroup } from './cleaning';
import { discovery } from './discovery';
import { edgeCases } from './edge-cases';
import { deleteBodiesGroup } from './delete-bodies';
import { deployTemplatesGroup } from './deploy-templates';
import { conductorsGroup, driversGroup } from './drivers';
import { errors } from './errors';
import { nodeFieldsGroup } from './node-fields';
import { nodeLists } from './node-lists';
import { nodePatch } from './node-patch';
import { nodeStates } from './node-states';
import { oldVersions } from './old-versions';
import { nodeSubresources } from './node-subresources';
import { nodesCrud } from './nodes-crud';
import { portgroupsGroup } from './portgroups';
import { portsGroup } from './ports';
import { portsDeepGroup } from './ports-deep';
import { provisioningGroup } from './provisioning';
import { traitsGroup, vifsGroup } from './traits-vifs';
import { v2025FirmwareVmedia } from './v2025-firmware-vmedia';
import { versions } from './versions';
import { versionSweepGroup } from './version-sweep';
import { v2025VersionSweep } from './v2025-version-sweep';
import { v2025ChildSteps } from './v2025-child-steps';
import { v2025Inspection } from './v2025-inspection';
import { v2025NodesPortsGroup } from './v2025-nodes-ports';
import { serviceRunbooksGroup } from './v2025-service-runbooks';
import { volumeGroup } from './volume';

// node-lists runs first so that its unfiltered lists hold only its own nodes (v2025-nodes-ports next, for the
// same reason: its /detail lists show every node); errors runs late because a
// request one server accepts and the other rejects (oversized body, odd types) would shift every later list.
export const ALL_GROUPS: readonly CaseGroup[] = [
  discovery,
  versions,
  nodeLists,
  v2025NodesPortsGroup,
  nodesCrud,
  nodePatch,
  chassisGroup,
  portsGroup,
  portgroupsGroup,
  portsDeepGroup,
  driversGroup,
  conductorsGroup,
  traitsGroup,
  vifsGroup,
  nodeStates,
  nodeSubresources,
  allocationsGroup,
  deployTemplatesGroup,
  volumeGroup,
  versionSweepGroup,
  v2025VersionSweep,
  provisioningGroup,
  cleaningGroup,
  agentEventsGroup,
  serviceRunbooksGroup,
  nodeFieldsGroup,
  oldVersions,
  v2025FirmwareVmedia,
  v2025Inspection,
  v2025ChildSteps,
  deleteBodiesGroup,
  edgeCases,
  errors,
];
