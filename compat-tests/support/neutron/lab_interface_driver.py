"""A neutron-dhcp-agent interface driver for the compat tests' lab: the DHCP port on a lab bridge.

Neutron 26 ships only the Open vSwitch and null interface drivers (the Linux bridge one is gone),
and the lab has a plain Linux bridge with the VM's tap on it. This driver does what the Linux bridge
driver and its agent did together: a veth pair, its ns- end in the DHCP namespace with the port's
MAC, its tap end enslaved to the bridge named by IRONIC_TS_LAB_BRIDGE. dnsmasq, its options and
host files stay Neutron's own. Loaded by neutron-dhcp-agent through [DEFAULT]interface_driver =
baremetal_lab (entry point neutron.interface_drivers, declared by the launcher).
"""
import os

from neutron.agent.linux import bridge_lib
from neutron.agent.linux import interface
from neutron.agent.linux import ip_lib


class LabBridgeInterfaceDriver(interface.LinuxInterfaceDriver):

    DEV_NAME_PREFIX = 'ns-'

    def _tap_name(self, device_name, prefix=None):
        return device_name.replace(prefix or self.DEV_NAME_PREFIX, 'tap')

    def plug_new(self, network_id, port_id, device_name, mac_address,
                 bridge=None, namespace=None, prefix=None, mtu=None):
        tap_name = self._tap_name(device_name, prefix)
        root_dev, ns_dev = ip_lib.IPWrapper().add_veth(tap_name, device_name, namespace2=namespace)
        root_dev.disable_ipv6()
        ns_dev.link.set_address(mac_address)
        if mtu:
            self.set_mtu(device_name, mtu, namespace=namespace, prefix=prefix)
        bridge = bridge or os.environ['IRONIC_TS_LAB_BRIDGE']
        if not bridge_lib.BridgeDevice(bridge).addif(tap_name):
            raise RuntimeError('cannot add %s to the lab bridge %s' % (tap_name, bridge))
        ns_dev.link.set_up()
        root_dev.link.set_up()

    def unplug(self, device_name, bridge=None, namespace=None, prefix=None):
        device = ip_lib.IPDevice(device_name, namespace=namespace)
        if device.exists():
            device.link.delete()

    def set_mtu(self, device_name, mtu, namespace=None, prefix=None):
        ip_lib.IPDevice(device_name, namespace=namespace).link.set_mtu(mtu)
        ip_lib.IPDevice(self._tap_name(device_name, prefix)).link.set_mtu(mtu)
