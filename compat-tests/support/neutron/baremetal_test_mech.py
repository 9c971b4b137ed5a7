"""An ML2 mechanism driver for the compat tests that binds baremetal ports as networking-baremetal does.

A port with binding:vnic_type=baremetal is bound (vif_type 'other') on the first flat or vlan segment
when its binding:profile carries local_link_information; without it the driver declines, so ML2
marks the port binding_failed. A DHCP agent's port (device_owner network:dhcp) is bound on the same
segments, as the L2 agent on the DHCP agent's host would bind it. Loaded by neutron-server through the entry point
neutron.ml2.mechanism_drivers: baremetal_test, which the launcher (neutron.ts) declares.
"""
from neutron_lib.api.definitions import portbindings
from neutron_lib import constants
from neutron_lib.plugins.ml2 import api

BINDABLE_TYPES = ('flat', 'vlan')


class BaremetalTestMechanismDriver(api.MechanismDriver):

    def initialize(self):
        pass

    @property
    def connectivity(self):
        return portbindings.CONNECTIVITY_L2

    def bind_port(self, context):
        port = context.current
        if port.get('device_owner') != constants.DEVICE_OWNER_DHCP:
            if port.get(portbindings.VNIC_TYPE) != portbindings.VNIC_BAREMETAL:
                return
            profile = port.get(portbindings.PROFILE) or {}
            if not profile.get('local_link_information'):
                return
        for segment in context.segments_to_bind:
            if segment[api.NETWORK_TYPE] in BINDABLE_TYPES:
                context.set_binding(segment[api.ID], portbindings.VIF_TYPE_OTHER, {},
                                    status=constants.PORT_STATUS_ACTIVE)
                return
