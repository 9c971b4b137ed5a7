// Differences accepted on purpose, keyed "group/case name", each with the reason it is acceptable.
// Keep this short: every entry hides a bug class. Each one here is a place where the issue asks for
// Ironic's documented/master behaviour and the 21.4.4 reference differs.
const GENERIC_VERSION_HEADER =
  'ironic-ts reads `OpenStack-API-Version: baremetal 1.N` (as master Ironic does through microversion_parse, and as the ' +
  'foundation issue requires); Ironic 21.4.4 ignores that header and answers at 1.1.';
const MALFORMED_JSON =
  'Ironic 21.4.4 answers a body that is not JSON with a 500 carrying Python\'s parser text; ironic-ts answers 400 (client fault) ' +
  'with a clear message, as the foundation issue requires for bad input.';

const PORT_MOVE_BUG =
  'Ironic 21.4.4 fails a port PATCH of /node_uuid with a 500 (KeyError \'address\' / \'node_uuid\' in its port controller); ' +
  'ironic-ts moves the port (or refuses removing node_uuid with a 400), as the API reference documents.';

const PORTGROUP_MEMBERS_BUG =
  'Ironic 21.4.4 answers with a 500 from the database (its member check looks ports up by the portgroup\'s UUID where ' +
  'it needs the id, so it finds none and the write hits a constraint); ironic-ts refuses with the PortgroupNotEmpty ' +
  '400 that check was written to give.';

const NO_SERVER_ERRORS =
  'Ironic 21.4.4 fails this request in Python (TypeError, AttributeError, KeyError) with a 500; the hardening issue ' +
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

export const KNOWN_DIFFERENCES: Readonly<Record<string, string>> = {
  'v2025-inspection/create without conditions': RULE_WITHOUT_CONDITIONS,
  'v2025-inspection/patch remove conditions': RULE_WITHOUT_CONDITIONS,
  'v2025-inspection/too few list arguments': RULE_ARGUMENTS,
  'v2025-inspection/missing and unexpected arguments': RULE_ARGUMENTS,
  ...Object.fromEntries([
    'node-patch/add new root attribute', 'node-patch/replace uuid', 'node-patch/replace id', 'node-patch/replace created_at',
    'node-patch/replace provision_state', 'node-patch/replace power_state', 'node-patch/invalid path',
    'ports/create missing node', 'ports/create with name (port names are newer than 1.82)', 'ports/create with node_id',
    'ports/show by address is not supported', 'ports/patch invalid path',
  ].map((key) => [key, RELEASE_2025_NODES_PORTS])),
  'v2025-service-runbooks/add a step without args':
    'Ironic 29.0.5 answers a runbook PATCH adding a step without `args` (which RUNBOOK_STEP_SCHEMA allows) with a 500 ' +
    '(NOT NULL constraint on runbook_steps.args); ironic-ts stores the step with empty args, as a runbook POST does.',
  'ports/patch move to other node': PORT_MOVE_BUG,
  'ports/patch pxe_enabled': `Follows from the previous case: the port now belongs to the other node. ${PORT_MOVE_BUG}`,
  'ports/patch remove node_uuid': PORT_MOVE_BUG,
  'ports-deep/portgroup to the other node with members': PORTGROUP_MEMBERS_BUG,
  'ports-deep/delete a portgroup with ports': PORTGROUP_MEMBERS_BUG,
  'versions/OpenStack-API-Version baremetal 1.50': GENERIC_VERSION_HEADER,
  'versions/OpenStack-API-Version baremetal latest': GENERIC_VERSION_HEADER,
  'versions/OpenStack-API-Version baremetal 1.83': GENERIC_VERSION_HEADER,
  'versions/OpenStack-API-Version baremetal garbage': GENERIC_VERSION_HEADER,
  'errors/malformed JSON': MALFORMED_JSON,
  'node-patch/malformed patch JSON': MALFORMED_JSON,
  'errors/oversized body (> 1 MiB)':
    'Ironic 21.4.4 has no body limit; ironic-ts refuses bodies over [api]max_json_body_size (1 MiB; 64 MiB for provisioning) ' +
    'with 413, as later Ironic does and the foundation issue requires.',
  'errors/body is null': NO_SERVER_ERRORS,
  'node-lists/fields unknown': NO_SERVER_ERRORS,
  'agent-events/node vendor call, method in path and query': NO_SERVER_ERRORS,
  'agent-events/node vendor call, two path segments': NO_SERVER_ERRORS,
  'agent-events/driver vendor call, method in path and query': NO_SERVER_ERRORS,
  'agent-events/driver vendor call, three path segments': NO_SERVER_ERRORS,
  'ports-deep/port into a portgroup of another node': NO_SERVER_ERRORS,
  'allocations/backfill an available node':
    'Ironic 21.4.4 answers a backfill onto a node that does not fit with AllocationFailed, a 500; ironic-ts answers the ' +
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
    'Both answer webob\'s 400 Bad Request; Ironic 21.4.4\'s description is empty, ironic-ts says the body is not UTF-8.',
};
