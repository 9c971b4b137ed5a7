// Differences accepted on purpose, keyed "group/case name", each with the reason it is acceptable.
// Keep this short: every entry hides a bug class. KNOWN_DIFFERENCES are places where the issue asks for
// Ironic's documented/master behaviour and a reference differs; CHANGED_SINCE_21 are places where 29.0.5
// answers differently from 21.4.4 and ironic-ts follows 29.0.5 (accepted against the 2023.1 reference only).
import { CURRENT_RELEASE, type ReferenceRelease } from '../support/reference-ironic';

const MALFORMED_JSON =
  'Ironic 21.4.4 and 29.0.5 answer a body that is not JSON with a 500 carrying Python\'s parser text; ironic-ts answers 400 (client fault) ' +
  'with a clear message, as the foundation issue requires for bad input.';

const PORT_MOVE_BUG =
  'Ironic 21.4.4 and 29.0.5 fail a port PATCH moving the port to another node with a 500 (KeyError \'address\' in the ' +
  'port controller; 21.4.4 also fails a removal of node_uuid, which 29.0.5 leaves the port\'s node unchanged, as ' +
  'ironic-ts does); ironic-ts moves the port, as the API reference documents.';

const PORTGROUP_MEMBERS_BUG =
  'Ironic 21.4.4 answers with a 500 from the database (its member check looks ports up by the portgroup\'s UUID where ' +
  'it needs the id, so it finds none and the write hits a constraint; 29.0.5 still fails moving a portgroup with ' +
  'members, with a 500 from a constraint on nodes.uuid); ironic-ts refuses with the PortgroupNotEmpty 400 that ' +
  'check was written to give.';

const NO_SERVER_ERRORS =
  'Ironic 21.4.4 and 29.0.5 fail this request in Python (TypeError, AttributeError, KeyError) with a 500; the hardening issue ' +
  'requires no 5xx for bad input, so ironic-ts answers the client\'s 400 with a clear message.';

const RULE_WITHOUT_CONDITIONS =
  'Ironic 2025.1 writes an inspection rule without conditions (or with them removed) and then fails its answer with a ' +
  '500 ("\'NoneType\' object is not iterable": its view iterates the unset field); ironic-ts answers with the rule it ' +
  'wrote, conditions [] as Ironic shows them afterwards.';
const RULE_ARGUMENTS =
  'Ironic 2025.1 lets InspectionRuleValidationFailure (an operation\'s missing, surplus or too few arguments) escape ' +
  'as a 500, with a Python tuple as the message for too few; ironic-ts answers the client\'s 400 with the same text ' +
  '(the tuple spelt as a sentence).';

const RELEASE_2025_NODES_PORTS =
  'Against the 21.4.4 reference only: ironic-ts answers as Ironic 2025.1 (29.0.5) does, the release issue 13 asks for ' +
  '(disable_power_off and parent_node are patchable, a port may be named and may name its node by node_ident, ports are ' +
  'found by UUID or name); the 2025.1 run of the same case is identical.';

const KNOWN_DIFFERENCES: Readonly<Record<string, string>> = {
  'v2025-inspection/create without conditions': RULE_WITHOUT_CONDITIONS,
  'v2025-inspection/patch remove conditions': RULE_WITHOUT_CONDITIONS,
  'v2025-inspection/too few list arguments': RULE_ARGUMENTS,
  'v2025-inspection/missing and unexpected arguments': RULE_ARGUMENTS,
  'v2025-service-runbooks/add a step without args':
    'Ironic 29.0.5 answers a runbook PATCH adding a step without `args` (which RUNBOOK_STEP_SCHEMA allows) with a 500 ' +
    '(NOT NULL constraint on runbook_steps.args); ironic-ts stores the step with empty args, as a runbook POST does.',
  'ports/patch move to other node': PORT_MOVE_BUG,
  'ports/patch pxe_enabled': `Follows from the previous case: the port now belongs to the other node. ${PORT_MOVE_BUG}`,
  'ports/patch remove node_uuid': PORT_MOVE_BUG,
  'ports-deep/portgroup to the other node with members': PORTGROUP_MEMBERS_BUG,
  'ports-deep/delete a portgroup with ports': PORTGROUP_MEMBERS_BUG,
  'errors/malformed JSON': MALFORMED_JSON,
  'node-patch/malformed patch JSON': MALFORMED_JSON,
  'errors/oversized body (> 1 MiB)':
    'Ironic 21.4.4 and 29.0.5 have no body limit; ironic-ts refuses bodies over [api]max_json_body_size (1 MiB; 64 MiB for ' +
    'provisioning) with 413, as the foundation issue requires.',
  'errors/body is null': NO_SERVER_ERRORS,
  'node-lists/fields unknown': NO_SERVER_ERRORS,
  'agent-events/node vendor call, method in path and query': NO_SERVER_ERRORS,
  'agent-events/node vendor call, two path segments': NO_SERVER_ERRORS,
  'agent-events/driver vendor call, method in path and query': NO_SERVER_ERRORS,
  'agent-events/driver vendor call, three path segments': NO_SERVER_ERRORS,
  'ports-deep/port into a portgroup of another node': NO_SERVER_ERRORS,
  'delete-bodies/unexpected argument deleting an allocation of a node': NO_SERVER_ERRORS,
  'v2025-child-steps/clean naming a child that is no uuid': NO_SERVER_ERRORS,
  'delete-bodies/port named in the path and the body': NO_SERVER_ERRORS,
  'delete-bodies/trait named in the path and the body': NO_SERVER_ERRORS,
  'delete-bodies/node named in the path and the body': NO_SERVER_ERRORS,
  'allocations/backfill an available node':
    'Ironic 21.4.4 and 29.0.5 answer a backfill onto a node that does not fit with AllocationFailed, a 500; ironic-ts answers the ' +
    'same message with a 400 (the client named the node) and, as Ironic, leaves the allocation in state error.',
  'errors/body nested 5,000 levels':
    'Ironic 21.4.4 fails with an empty 500 (Python\'s recursion limit) and 29.0.5 looks the node up (404); ironic-ts ' +
    'refuses JSON nested past 100 levels with a 400 before anything else, as the hardening issue requires.',
  'v2025-nodes-ports/children with fields (Ironic: TypeError)':
    'Ironic 29.0.5 fails with a 500 (TypeError: get_all() got an unexpected keyword argument \'fields\'); ironic-ts answers ' +
    'the 400 "Unexpected arguments: fields" it gives any resource for an argument it does not take.',
  'v2025-nodes-ports/children at 1.82 (Ironic: empty 500)':
    'Ironic 29.0.5 raises its HTTPNotFound inside pecan\'s routing below 1.83 and answers an empty 500; ironic-ts answers ' +
    'the routing 404 that exception means, as for every other node sub-resource below its version.',
  'v2025-nodes-ports/.json list at latest (Ironic: 500)':
    'Ironic 29.0.5\'s JsonExtensionMiddleware cannot parse "latest" and fails with a 500; ironic-ts reads "latest" as the ' +
    'newest version (no .json stripping from 1.91) and answers the 404 of an unknown path.',
  'errors/body not UTF-8':
    'Both answer webob\'s 400 Bad Request; Ironic\'s description (21.4.4 and 29.0.5) is empty, ironic-ts says the body is not UTF-8.',
};

const NEWER_MAXIMUM = '29.0.5 answers API versions up to 1.96, where 21.4.4 refuses anything above 1.82 with a 406.';
const ROOT_NEGOTIATES =
  '29.0.5 negotiates the version on `/` too: the version headers on the root document, and a 406 fault for a version it ' +
  'does not serve; 21.4.4\'s root ignores the version and sends no version headers.';
const V1_REFUSAL =
  '29.0.5 refuses a bad version on the /v1 document with webob\'s 406 (code, title, description; no request id), as on ' +
  'every other path; 21.4.4 answers a fault there.';
const MICROVERSION_PARSE =
  '29.0.5 reads the version with microversion_parse: `OpenStack-API-Version: baremetal 1.N` counts (its last baremetal ' +
  'entry, winning when both headers are sent; 21.4.4 ignores it and answers at 1.1), of X-OpenStack-Ironic-API-Version ' +
  'the last comma-separated value counts, and an empty one means the default 1.1 (21.4.4: a 406).';
const NEW_RESOURCES = '29.0.5\'s latest version (1.96) links runbooks, inspection_rules and continue_inspection from /v1.';
const SNMP_MASKED = '29.0.5 masks driver_info\'s snmp_auth_key and snmp_priv_key as secrets; 21.4.4 showed them.';
const NO_VALID_HOST = '29.0.5\'s NoValidHost reason ends "Ensure the driver is valid and enabled."';
const VALIDATE_FIRMWARE = '29.0.5 validates the firmware interface too and reports it at every version.';
const LOG_PASSTHROUGH = '29.0.5\'s fake vendor interface (FakeVendorB) has a log_passthrough method, also a clean step.';
const SHARDS_BELOW_182 =
  '29.0.5 refuses GET /v1/shards below 1.82 in the controller (a 404 fault with the version headers; 21.4.4 a bare ' +
  'webob 404) and answers other methods with the plain 405 of every version (21.4.4: a 405 saying the version does ' +
  'not allow shards).';
const STEP_INTERFACES =
  '29.0.5\'s step schemas accept the vendor and firmware interfaces (enum vendor, power, management, firmware, deploy, ' +
  'bios, raid), and its schema errors quote that enum.';
const DUPLICATE_STEPS = '29.0.5 says "A template cannot have multiple deploy steps" (the check is shared with runbooks).';
const NODE_LINK =
  '29.0.5 authorizes the node a PATCH links a port, portgroup or volume object to (authorize_node_link): a node by uuid ' +
  'or name the caller may see with the same owner; anything else gets "Unable to apply the requested node_uuid", which ' +
  'does not reveal whether the node exists (21.4.4: NodeNotFound, or a uuid error), and removing node_uuid leaves the ' +
  'node unchanged (21.4.4: a 500).';

const CHANGED_SINCE_21: Readonly<Record<string, string>> = {
  ...Object.fromEntries([
    'node-patch/add new root attribute', 'node-patch/replace uuid', 'node-patch/replace id', 'node-patch/replace created_at',
    'node-patch/replace provision_state', 'node-patch/replace power_state', 'node-patch/invalid path',
    'ports/create missing node', 'ports/create with name (port names are newer than 1.82)', 'ports/create with node_id',
    'ports/show by address is not supported', 'ports/patch invalid path', 'node-fields/boot_mode (read only)',
    'node-fields/secure_boot (read only)', 'node-fields/traits (read only)', 'node-fields/conductor (read only)',
    'node-fields/allocation_uuid (read only)', 'errors/bad port ident',
  ].map((key) => [key, RELEASE_2025_NODES_PORTS])),
  'node-lists/filter fault invalid': 'Against the 21.4.4 reference only: 29.0.5 lists `service failure` among the ' +
    'valid faults in its refusal, and ironic-ts answers as 29.0.5.',
  "versions/1.83 (above 21.4.4's max)": NEWER_MAXIMUM,
  'versions/version on /v1 document 1.83': NEWER_MAXIMUM,
  'discovery/root without version header': ROOT_NEGOTIATES,
  'discovery/root asking latest': ROOT_NEGOTIATES,
  'discovery/root asking 1.83 (root ignores the version)': ROOT_NEGOTIATES,
  'discovery/root asking 1.97 (root ignores the version)': ROOT_NEGOTIATES,
  'discovery/root asking garbage version': ROOT_NEGOTIATES,
  'discovery/PUT on root': ROOT_NEGOTIATES,
  'discovery/v1 at latest': NEW_RESOURCES,
  'versions/version on /v1 document 1.97': V1_REFUSAL,
  'versions/version on /v1 document garbage': V1_REFUSAL,
  'versions/empty value': MICROVERSION_PARSE,
  'versions/OpenStack-API-Version baremetal 1.50': MICROVERSION_PARSE,
  'versions/OpenStack-API-Version baremetal latest': MICROVERSION_PARSE,
  'versions/OpenStack-API-Version baremetal 1.83': MICROVERSION_PARSE,
  'versions/OpenStack-API-Version baremetal 1.97': MICROVERSION_PARSE,
  'versions/OpenStack-API-Version baremetal garbage': MICROVERSION_PARSE,
  'versions/both headers, different versions': MICROVERSION_PARSE,
  'nodes-crud/create rich at max': SNMP_MASKED,
  'nodes-crud/show rich by name': SNMP_MASKED,
  'nodes-crud/show rich by uuid at 1.1 (masking)': SNMP_MASKED,
  'nodes-crud/show with fields': SNMP_MASKED,
  'nodes-crud/create with unknown conductor_group': NO_VALID_HOST,
  'node-patch/replace conductor_group': NO_VALID_HOST,
  'node-patch/replace driver unknown': NO_VALID_HOST,
  'node-fields/create with an unknown driver': NO_VALID_HOST,
  'node-fields/create with a bad conductor_group': NO_VALID_HOST,
  'node-fields/conductor_group upper case': NO_VALID_HOST,
  'node-fields/conductor_group with a dot': NO_VALID_HOST,
  'errors/unknown driver': NO_VALID_HOST,
  'node-states/validate': VALIDATE_FIRMWARE,
  'node-states/validate at 1.1': VALIDATE_FIRMWARE,
  'node-subresources/vendor passthru methods': LOG_PASSTHROUGH,
  'agent-events/node vendor methods': LOG_PASSTHROUGH,
  'node-subresources/shards at 1.81 (too old)': SHARDS_BELOW_182,
  'deploy-templates/step with unknown interface': STEP_INTERFACES,
  'provisioning/deploy with a bad deploy step': STEP_INTERFACES,
  'cleaning/clean step without interface': STEP_INTERFACES,
  'cleaning/clean step with an unknown interface': STEP_INTERFACES,
  'cleaning/clean step with an unknown key': STEP_INTERFACES,
  'deploy-templates/duplicate steps': DUPLICATE_STEPS,
  'volume/connector to unknown node': NODE_LINK,
  'old-versions/legacy header, comma-separated (last counts)': MICROVERSION_PARSE,
  'old-versions/legacy header, whitespace only': MICROVERSION_PARSE,
  'old-versions/generic header, two services': MICROVERSION_PARSE,
  'old-versions/generic header, two baremetal entries (last counts)': MICROVERSION_PARSE,
  'old-versions/generic header, version with a trailing word': MICROVERSION_PARSE,
  'old-versions/root with the generic header': ROOT_NEGOTIATES,
  'old-versions/root with an empty legacy header': ROOT_NEGOTIATES,
  'old-versions/root below the minimum': ROOT_NEGOTIATES,
  'old-versions/root, wrong major': ROOT_NEGOTIATES,
  'old-versions/a shard by name at 1.81': SHARDS_BELOW_182,
  'old-versions/POST shards at 1.81': SHARDS_BELOW_182,
  'old-versions/DELETE shards at 1.81': SHARDS_BELOW_182,
  'old-versions/port to an unknown node': NODE_LINK,
  'old-versions/port to a node by name': NODE_LINK,
  'old-versions/port to a number': NODE_LINK,
  'old-versions/port to a node of another owner': NODE_LINK,
  'old-versions/port removing node_uuid': NODE_LINK,
  'old-versions/portgroup to an unknown node': NODE_LINK,
  'old-versions/portgroup to garbage': NODE_LINK,
  'old-versions/portgroup removing node_uuid': NODE_LINK,
  'old-versions/connector removing node_uuid': NODE_LINK,
  'old-versions/log_passthrough with any arguments': LOG_PASSTHROUGH,
  'old-versions/SNMP keys set': SNMP_MASKED,
  'old-versions/SNMP keys masked when set': SNMP_MASKED,
};

export function acceptedReason(key: string, release: ReferenceRelease): string | undefined {
  if (Object.hasOwn(KNOWN_DIFFERENCES, key)) return KNOWN_DIFFERENCES[key];
  if (release !== CURRENT_RELEASE && Object.hasOwn(CHANGED_SINCE_21, key)) return CHANGED_SINCE_21[key];
  return undefined;
}
