/**
 * Which Ironic policy each API route checks, and how (ironic/api/controllers/v1/utils.py):
 * check_policy (no target), check_node_policy_and_retrieve (baremetal:node:get first, concealing
 * the node as 404 from project-scoped callers, then the action on the node's owner/lessee),
 * check_list_policy (list_all, else list filtered to the caller's project), and the port and
 * allocation variants, and port/portgroup creation checked against the owning node's owner and
 * lessee (check_owner_policy). Controllers stay unaware of policy; they only honour listProject.
 */
export type RouteRule =
  | { kind: 'plain'; policy: string }
  | { kind: 'node'; policy: string }
  | { kind: 'list'; object: 'node' | 'port' | 'portgroup' | 'allocation' | 'volume' }
  | { kind: 'child'; table: 'ports' | 'portgroups' | 'volume_connectors' | 'volume_targets'; policy: string }
  | { kind: 'allocation'; policy: string }
  | { kind: 'nodeCreate' }
  | { kind: 'childCreate'; policy: string }
  | { kind: 'allocationCreate' }
  | { kind: 'nodePatch' }
  | { kind: 'nodeDelete' }
  | { kind: 'nodeChildren' }
  | { kind: 'open' };

interface Route { methods: string; path: RegExp; rule: RouteRule }

const plain = (policy: string): RouteRule => ({ kind: 'plain', policy });
const node = (policy: string): RouteRule => ({ kind: 'node', policy });
const N = '/v1/nodes/([^/]+)';

const ROUTES: Route[] = [
  // Agents' routes are public (is_public_api passes baremetal:driver:ipa_lookup and node:ipa_heartbeat).
  { methods: 'GET', path: /^\/v1\/lookup$/, rule: { kind: 'open' } },
  { methods: 'POST', path: /^\/v1\/heartbeat\/[^/]+$/, rule: { kind: 'open' } },
  { methods: 'POST', path: /^\/v1\/continue_inspection$/, rule: { kind: 'open' } },
  { methods: 'GET', path: /^\/v1\/?$/, rule: { kind: 'open' } },

  { methods: 'GET', path: /^\/v1\/nodes(\/detail)?$/, rule: { kind: 'list', object: 'node' } },
  { methods: 'POST', path: /^\/v1\/nodes$/, rule: { kind: 'nodeCreate' } },
  { methods: 'GET', path: /^\/v1\/nodes\/validate$/, rule: plain('baremetal:node:validate') },
  { methods: 'GET', path: rx(`${N}$`), rule: node('baremetal:node:get') },
  { methods: 'PATCH', path: rx(`${N}$`), rule: { kind: 'nodePatch' } },
  { methods: 'DELETE', path: rx(`${N}$`), rule: { kind: 'nodeDelete' } },
  { methods: 'GET', path: rx(`${N}/states$`), rule: node('baremetal:node:get_states') },
  { methods: 'PUT', path: rx(`${N}/states/power$`), rule: node('baremetal:node:set_power_state') },
  { methods: 'PUT', path: rx(`${N}/states/provision$`), rule: node('baremetal:node:set_provision_state') },
  { methods: 'PUT', path: rx(`${N}/states/raid$`), rule: node('baremetal:node:set_raid_state') },
  { methods: 'PUT', path: rx(`${N}/states/boot_mode$`), rule: node('baremetal:node:set_boot_mode') },
  { methods: 'PUT', path: rx(`${N}/states/secure_boot$`), rule: node('baremetal:node:set_secure_boot') },
  { methods: 'GET', path: rx(`${N}/states/console$`), rule: node('baremetal:node:get_console') },
  { methods: 'PUT', path: rx(`${N}/states/console$`), rule: node('baremetal:node:set_console_state') },
  { methods: 'PUT', path: rx(`${N}/maintenance$`), rule: node('baremetal:node:set_maintenance') },
  { methods: 'DELETE', path: rx(`${N}/maintenance$`), rule: node('baremetal:node:clear_maintenance') },
  { methods: 'GET', path: rx(`${N}/validate$`), rule: node('baremetal:node:validate') },
  { methods: 'GET', path: rx(`${N}/management/boot_device(/supported)?$`), rule: node('baremetal:node:get_boot_device') },
  { methods: 'PUT', path: rx(`${N}/management/boot_device$`), rule: node('baremetal:node:set_boot_device') },
  { methods: 'PUT', path: rx(`${N}/management/inject_nmi$`), rule: node('baremetal:node:inject_nmi') },
  { methods: 'GET', path: rx(`${N}/management/indicators(/[^/]+)?$`), rule: node('baremetal:node:get_indicator_state') },
  { methods: 'PUT', path: rx(`${N}/management/indicators/[^/]+$`), rule: node('baremetal:node:set_indicator_state') },
  { methods: 'GET', path: rx(`${N}/traits$`), rule: node('baremetal:node:traits:list') },
  { methods: 'PUT', path: rx(`${N}/traits(/[^/]+)?$`), rule: node('baremetal:node:traits:set') },
  { methods: 'DELETE', path: rx(`${N}/traits(/[^/]+)?$`), rule: node('baremetal:node:traits:delete') },
  { methods: 'GET', path: rx(`${N}/vifs$`), rule: node('baremetal:node:vif:list') },
  { methods: 'POST', path: rx(`${N}/vifs$`), rule: node('baremetal:node:vif:attach') },
  { methods: 'DELETE', path: rx(`${N}/vifs/[^/]+$`), rule: node('baremetal:node:vif:detach') },
  { methods: '*', path: rx(`${N}/vendor_passthru(/.*)?$`), rule: node('baremetal:node:vendor_passthru') },
  { methods: 'GET', path: rx(`${N}/bios(/[^/]+)?$`), rule: node('baremetal:node:bios:get') },
  { methods: 'GET', path: rx(`${N}/history(/[^/]+)?$`), rule: node('baremetal:node:history:get') },
  { methods: 'GET', path: rx(`${N}/inventory$`), rule: node('baremetal:node:inventory:get') },
  { methods: 'GET', path: rx(`${N}/firmware$`), rule: node('baremetal:node:firmware:get') },
  { methods: 'GET', path: rx(`${N}/vmedia$`), rule: node('baremetal:node:vmedia:get') },
  { methods: 'POST', path: rx(`${N}/vmedia$`), rule: node('baremetal:node:vmedia:attach') },
  { methods: 'DELETE', path: rx(`${N}/vmedia$`), rule: node('baremetal:node:vmedia:detach') },
  { methods: 'GET', path: rx(`${N}/children$`), rule: { kind: 'nodeChildren' } },
  { methods: 'GET', path: rx(`${N}/ports(/.*)?$`), rule: node('baremetal:port:list') },
  { methods: 'GET', path: rx(`${N}/portgroups(/.*)?$`), rule: node('baremetal:portgroup:list') },
  { methods: 'GET', path: rx(`${N}/volume(/.*)?$`), rule: node('baremetal:volume:list') },
  { methods: 'GET', path: rx(`${N}/allocation$`), rule: node('baremetal:allocation:get') },
  // Any other one segment below a node is get_one's positional `fields`.
  { methods: 'GET', path: rx(`${N}/[^/]+$`), rule: node('baremetal:node:get') },
  { methods: 'DELETE', path: rx(`${N}/allocation$`), rule: node('baremetal:allocation:delete') },

  { methods: 'GET', path: /^\/v1\/ports(\/detail)?$/, rule: { kind: 'list', object: 'port' } },
  { methods: 'POST', path: /^\/v1\/ports$/, rule: { kind: 'childCreate', policy: 'baremetal:port:create' } },
  { methods: 'GET', path: /^\/v1\/ports\/([^/]+)(\/[^/]+)?$/, rule: { kind: 'child', table: 'ports', policy: 'baremetal:port:get' } },
  { methods: 'PATCH', path: /^\/v1\/ports\/([^/]+)$/, rule: { kind: 'child', table: 'ports', policy: 'baremetal:port:update' } },
  { methods: 'DELETE', path: /^\/v1\/ports\/([^/]+)$/, rule: { kind: 'child', table: 'ports', policy: 'baremetal:port:delete' } },

  { methods: 'GET', path: /^\/v1\/portgroups(\/detail)?$/, rule: { kind: 'list', object: 'portgroup' } },
  { methods: 'POST', path: /^\/v1\/portgroups$/, rule: { kind: 'childCreate', policy: 'baremetal:portgroup:create' } },
  { methods: 'GET', path: /^\/v1\/portgroups\/([^/]+)(\/.*)?$/, rule: { kind: 'child', table: 'portgroups', policy: 'baremetal:portgroup:get' } },
  { methods: 'PATCH', path: /^\/v1\/portgroups\/([^/]+)$/, rule: { kind: 'child', table: 'portgroups', policy: 'baremetal:portgroup:update' } },
  { methods: 'DELETE', path: /^\/v1\/portgroups\/([^/]+)$/, rule: { kind: 'child', table: 'portgroups', policy: 'baremetal:portgroup:delete' } },

  { methods: 'GET', path: /^\/v1\/drivers\/[^/]+\/properties$/, rule: plain('baremetal:driver:get_properties') },
  { methods: 'GET', path: /^\/v1\/drivers\/[^/]+\/raid\/logical_disk_properties$/, rule: plain('baremetal:driver:get_raid_logical_disk_properties') },
  { methods: '*', path: /^\/v1\/drivers\/[^/]+\/vendor_passthru(\/.*)?$/, rule: plain('baremetal:driver:vendor_passthru') },
  { methods: 'GET', path: /^\/v1\/drivers(\/[^/]+)?$/, rule: plain('baremetal:driver:get') },
  { methods: 'GET', path: /^\/v1\/conductors(\/[^/]+)?$/, rule: plain('baremetal:conductor:get') },

  // A chassis' nodes are served by NodesController: the node rules apply, not chassis:get.
  { methods: 'GET', path: /^\/v1\/chassis\/[^/]+\/nodes(\/detail)?$/, rule: { kind: 'list', object: 'node' } },
  { methods: 'GET', path: /^\/v1\/chassis\/[^/]+\/nodes\/([^/]+)$/, rule: node('baremetal:node:get') },
  { methods: 'GET', path: /^\/v1\/chassis(\/.*)?$/, rule: plain('baremetal:chassis:get') },
  { methods: 'POST', path: /^\/v1\/chassis$/, rule: plain('baremetal:chassis:create') },
  { methods: 'PATCH', path: /^\/v1\/chassis\/[^/]+$/, rule: plain('baremetal:chassis:update') },
  { methods: 'DELETE', path: /^\/v1\/chassis\/[^/]+$/, rule: plain('baremetal:chassis:delete') },
  { methods: 'GET', path: /^\/v1\/deploy_templates(\/[^/]+)?$/, rule: plain('baremetal:deploy_template:get') },
  { methods: 'POST', path: /^\/v1\/deploy_templates$/, rule: plain('baremetal:deploy_template:create') },
  { methods: 'PATCH', path: /^\/v1\/deploy_templates\/[^/]+$/, rule: plain('baremetal:deploy_template:update') },
  { methods: 'DELETE', path: /^\/v1\/deploy_templates\/[^/]+$/, rule: plain('baremetal:deploy_template:delete') },

  { methods: 'GET', path: /^\/v1\/allocations$/, rule: { kind: 'list', object: 'allocation' } },
  { methods: 'POST', path: /^\/v1\/allocations$/, rule: { kind: 'allocationCreate' } },
  { methods: 'GET', path: /^\/v1\/allocations\/([^/]+)$/, rule: { kind: 'allocation', policy: 'baremetal:allocation:get' } },
  { methods: 'PATCH', path: /^\/v1\/allocations\/([^/]+)$/, rule: { kind: 'allocation', policy: 'baremetal:allocation:update' } },
  { methods: 'DELETE', path: /^\/v1\/allocations\/([^/]+)$/, rule: { kind: 'allocation', policy: 'baremetal:allocation:delete' } },

  { methods: 'GET', path: /^\/v1\/volume\/?$/, rule: plain('baremetal:volume:get') },
  { methods: 'GET', path: /^\/v1\/volume\/(connectors|targets)$/, rule: { kind: 'list', object: 'volume' } },
  { methods: 'POST', path: /^\/v1\/volume\/(connectors|targets)$/, rule: plain('baremetal:volume:create') },
  { methods: 'GET', path: /^\/v1\/volume\/connectors\/([^/]+)$/, rule: { kind: 'child', table: 'volume_connectors', policy: 'baremetal:volume:get' } },
  { methods: 'GET', path: /^\/v1\/volume\/targets\/([^/]+)$/, rule: { kind: 'child', table: 'volume_targets', policy: 'baremetal:volume:get' } },
  { methods: 'PATCH', path: /^\/v1\/volume\/connectors\/([^/]+)$/, rule: { kind: 'child', table: 'volume_connectors', policy: 'baremetal:volume:update' } },
  { methods: 'PATCH', path: /^\/v1\/volume\/targets\/([^/]+)$/, rule: { kind: 'child', table: 'volume_targets', policy: 'baremetal:volume:update' } },
  { methods: 'DELETE', path: /^\/v1\/volume\/connectors\/([^/]+)$/, rule: { kind: 'child', table: 'volume_connectors', policy: 'baremetal:volume:delete' } },
  { methods: 'DELETE', path: /^\/v1\/volume\/targets\/([^/]+)$/, rule: { kind: 'child', table: 'volume_targets', policy: 'baremetal:volume:delete' } },

  { methods: 'GET', path: /^\/v1\/inspection_rules(\/[^/]+)?$/, rule: plain('baremetal:inspection_rule:get') },
  { methods: 'POST', path: /^\/v1\/inspection_rules$/, rule: plain('baremetal:inspection_rule:create') },
  { methods: 'PATCH', path: /^\/v1\/inspection_rules\/[^/]+$/, rule: plain('baremetal:inspection_rule:update') },
  { methods: 'DELETE', path: /^\/v1\/inspection_rules\/[^/]+$/, rule: plain('baremetal:inspection_rule:delete') },

  { methods: 'POST', path: /^\/v1\/events$/, rule: plain('baremetal:events:post') },
  { methods: 'GET', path: /^\/v1\/shards(\/[^/]+)?$/, rule: plain('baremetal:shards:get') },
];

function rx(source: string): RegExp {
  return new RegExp(`^${source}`);
}

/** The rule of a request and the ident its path names; routes not listed fall to the controllers' 404/405. */
export function ruleFor(method: string, path: string): { rule: RouteRule; ident: string | null } | null {
  const verb = method === 'HEAD' ? 'GET' : method;
  for (const route of ROUTES) {
    if (route.methods !== '*' && route.methods !== verb) continue;
    const m = route.path.exec(path);
    if (m) return { rule: route.rule, ident: m[1] !== undefined && !m[1].startsWith('/') ? decodeURIComponent(m[1]) : null };
  }
  return null;
}
