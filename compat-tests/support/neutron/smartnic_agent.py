"""The Neutron agent of a Smart NIC for the compat tests, over Neutron's own agent RPC API.

Usage: smartnic_agent.py TRANSPORT_URL HOST BRIDGE_MAPPINGS_JSON BMC_SYSTEM_URL BMC_USER BMC_PASSWORD RESTART_S

It does what neutron-openvswitch-agent does on a Smart NIC, as far as neutron-server can see:
state reports (PluginReportStateAPI on q-reports-plugin) as an 'Open vSwitch agent' with
baremetal_smartnic and bridge mappings, which make the agent alive in Neutron's agent list and let
ML2's openvswitch mechanism driver bind smart-nic ports to this host; and, for each smart-nic port
bound here (PluginApi.get_ports_by_vnic_type_and_host), update_device_up, which makes it ACTIVE.

A Smart NIC is powered by its host: when the host's BMC (a Redfish system) goes from Off to On,
the NIC restarts, sending no report for RESTART_S seconds.
"""
import base64
import json
import sys
import time
import urllib.request

from neutron_lib.agent import topics
from neutron_lib import context as n_context
from neutron_lib import rpc as n_rpc
from oslo_config import cfg
import oslo_messaging
from oslo_messaging import transport as om_transport

from neutron.agent import rpc as agent_rpc
from neutron.conf.agent import common as agent_config

REPORT_INTERVAL = 0.5


def bmc_power(url, user, password):
    auth = base64.b64encode(('%s:%s' % (user, password)).encode()).decode()
    req = urllib.request.Request(url, headers={'Authorization': 'Basic ' + auth})
    try:
        with urllib.request.urlopen(req, timeout=5) as res:
            return json.load(res).get('PowerState')
    except OSError:
        return None


def report(ctx, reports, plugin, state, agent_id, host):
    reports.report_state(ctx, state, use_call=True)
    state['start_flag'] = False
    for port in plugin.get_ports_by_vnic_type_and_host(ctx, 'smart-nic', host):
        if port.get('status') != 'ACTIVE':
            plugin.update_device_up(ctx, port['id'], agent_id, host)
            print('port %s up' % port['id'], flush=True)


def main():
    url, host, mappings, bmc, user, password, restart = sys.argv[1:8]
    # As neutron-server: the 'neutron' exchange on the given transport.
    oslo_messaging.set_transport_defaults(control_exchange='neutron')
    cfg.CONF.register_opts(om_transport._transport_opts)
    agent_config.register_agent_state_opts_helper(cfg.CONF)
    cfg.CONF([], project='neutron')
    cfg.CONF.set_override('transport_url', url)
    n_rpc.init(cfg.CONF)
    ctx = n_context.get_admin_context_without_session()
    reports = agent_rpc.PluginReportStateAPI(topics.REPORTS)
    plugin = agent_rpc.PluginApi(topics.PLUGIN)
    # neutron-server's RPC workers may start after its API answers: a report sent before they
    # listen is dropped, so calls time out soon and are sent again (as the OVS agent's loop does).
    # The option exists once an RPC client does.
    cfg.CONF.set_override('rpc_response_timeout', 5)
    state = {
        'binary': 'neutron-openvswitch-agent', 'host': host, 'topic': topics.AGENT,
        'agent_type': 'Open vSwitch agent', 'start_flag': True,
        'configurations': {'bridge_mappings': json.loads(mappings), 'baremetal_smartnic': True,
                           'tunnel_types': [], 'datapath_type': 'system'},
    }
    agent_id = 'ovs-agent-%s' % host
    power = bmc_power(bmc, user, password)
    silent_until = 0.0
    print('smartnic agent %s up' % host, flush=True)
    while True:
        now_power = bmc_power(bmc, user, password)
        if power == 'Off' and now_power == 'On':
            silent_until = time.time() + float(restart)
            state['start_flag'] = True
            print('host powered on: NIC restarting', flush=True)
        power = now_power or power
        if time.time() >= silent_until:
            try:
                report(ctx, reports, plugin, state, agent_id, host)
            except oslo_messaging.MessagingTimeout:
                print('no answer from neutron-server yet', flush=True)
        time.sleep(REPORT_INTERVAL)


if __name__ == '__main__':
    main()
