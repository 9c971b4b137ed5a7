"""A Nova compute environment for the ironic virt driver: nova.conf, SQLite databases made by
nova-manage, and the objects the compute manager would hand the driver (instance, image meta,
network_info). Only the metadata builder's Neutron lookup is replaced."""
import os
import subprocess
import sys
import uuid

WORK = os.environ['NOVA_WORKDIR']
IRONIC_URL = os.environ['IRONIC_URL'].rstrip('/')


def write_nova_conf():
    conf = os.path.join(WORK, 'nova.conf')
    with open(conf, 'w') as f:
        f.write('''[DEFAULT]
compute_driver = ironic.IronicDriver
host = nova-compat
state_path = {w}/state
instances_path = {w}/instances
force_config_drive = True
mkisofs_cmd = genisoimage
transport_url = fake:/
[api_database]
connection = sqlite:///{w}/nova_api.sqlite
[database]
connection = sqlite:///{w}/nova.sqlite
[ironic]
auth_type = none
endpoint_override = {url}
api_max_retries = 30
api_retry_interval = 1
serial_console_state_timeout = 10
[oslo_concurrency]
lock_path = {w}/locks
'''.format(w=WORK, url=IRONIC_URL))
    for sub in ('state', 'instances', 'locks'):
        os.makedirs(os.path.join(WORK, sub), exist_ok=True)
    return conf


def start_nova_manage(conf, *args):
    """nova-manage as Debian ships it (the module; the nova-common wrapper is not needed)."""
    code = 'import sys; from nova.cmd.manage import main; sys.exit(main())'
    return subprocess.Popen([sys.executable, '-c', code, '--config-file', conf] + list(args),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def finish(proc):
    out = proc.communicate()[0]
    if proc.returncode != 0:
        raise RuntimeError('nova-manage %s failed: %s' % (proc.args[4:], out.decode()[-2000:]))


def load_nova(conf):
    from nova import config
    from nova import objects
    config.parse_args(['nova-compat', '--config-file', conf], init_rpc=False)
    objects.register_all()
    # The metadata builder asks Neutron for security groups: the one thing here that needs Neutron.
    from nova.network import security_group_api
    security_group_api.get_instance_security_groups = lambda ctxt, instance: []


def make_instance(ctx, node_id, name, image_id, extra_specs=None):
    from nova import objects
    flavor = objects.Flavor(
        id=1, flavorid='bm1', name='bm.small', memory_mb=8192, vcpus=4, root_gb=100, ephemeral_gb=0,
        swap=0, rxtx_factor=1.0, vcpu_weight=0, disabled=False, is_public=True, description=None,
        extra_specs=dict({'resources:CUSTOM_BAREMETAL': '1', 'resources:VCPU': '0',
                          'resources:MEMORY_MB': '0', 'resources:DISK_GB': '0',
                          'capabilities:boot_mode': 'uefi'}, **(extra_specs or {})))
    return new_instance(ctx, flavor, uuid=str(uuid.uuid4()), project_id='project-nova-compat',
                        user_id='user-nova-compat', node=node_id, display_name=name, hostname=name,
                        image_ref=image_id, metadata={'role': 'compat'}, config_drive='', key_data=None)


def new_instance(ctx, flavor, **fields):
    """A saved Instance as the compute manager hands it to a spawn: building/spawning, sized by its flavor."""
    from nova import objects
    inst = objects.Instance(context=ctx)
    inst.host = 'nova-compat'
    inst.vm_state = 'building'
    inst.task_state = 'spawning'
    inst.power_state = 0
    inst.launch_index = 0
    inst.system_metadata = {}
    inst.flavor = flavor
    inst.old_flavor = None
    inst.new_flavor = None
    inst.memory_mb = flavor.memory_mb
    inst.vcpus = flavor.vcpus
    inst.root_gb = flavor.root_gb
    inst.ephemeral_gb = flavor.ephemeral_gb
    inst.instance_type_id = flavor.id
    inst.availability_zone = 'nova'
    # Nova 2023.2 and later want the compute node's id beside its name; this fake compute has one.
    if 'compute_id' in objects.Instance.fields and 'node' in fields:
        inst.compute_id = 1
    for key, value in fields.items():
        setattr(inst, key, value)
    inst.create()
    return inst


def make_image_meta(image_id):
    from nova import objects
    return objects.ImageMeta.from_dict({
        'id': image_id, 'name': 'compat-image', 'disk_format': 'raw', 'container_format': 'bare',
        'min_disk': 0, 'min_ram': 0, 'size': 1024, 'status': 'active', 'properties': {}})


def make_network_info(vif_id, mac, network_id=None, cidr='192.0.2.0/24', ip='192.0.2.10', gateway='192.0.2.1'):
    """What Neutron would have given the compute manager for one port on a flat network (a real
    port's network, subnet and address where given)."""
    from nova.network import model
    subnet = model.Subnet(cidr=cidr, gateway=model.IP(address=gateway, type='gateway'),
                          ips=[model.FixedIP(address=ip)],
                          dns=[model.IP(address='192.0.2.2', type='dns')], version=4)
    network = model.Network(id=network_id or str(uuid.uuid4()), bridge='br-compat', label='compat-net', subnets=[subnet],
                            meta={'mtu': 1500})
    vif = model.VIF(id=vif_id, address=mac, network=network, type='other', vnic_type='baremetal',
                    active=True, details={})
    return model.NetworkInfo([vif])
