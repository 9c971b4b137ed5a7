"""Drives Debian's unmodified Nova ironic virt driver (nova.virt.ironic.driver.IronicDriver) against an
Ironic API at $IRONIC_URL and prints one JSON document of step results on stdout (the last line).

Environment: IRONIC_URL (API root), IRONIC_DB (the server's SQLite file, to read the stored configdrive that
the API masks), NOVA_WORKDIR (scratch folder for nova.conf, Nova's SQLite databases, state).

Only what would need Neutron is mocked (the security-group lookup of the metadata builder); network_info and
image meta are built locally as Nova's compute manager would hand them over. Every Ironic call is real.
Node state is read back with plain HTTP after each step.
"""
import base64
import gzip
import json
import logging
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
import traceback
import uuid

import requests

IRONIC_URL = os.environ['IRONIC_URL'].rstrip('/')
IRONIC_DB = os.environ['IRONIC_DB']
WORK = os.environ['NOVA_WORKDIR']
HEADERS = {'X-OpenStack-Ironic-API-Version': '1.82'}
RESULTS = {}

# ---------------------------------------------------------------- plain HTTP to Ironic (not Nova code)


def api(method, path, body=None):
    r = requests.request(method, IRONIC_URL + path, json=body, headers=HEADERS, timeout=30)
    try:
        data = r.json() if r.content else None
    except ValueError:
        data = r.text
    return r.status_code, data


def fault(data):
    """The faultstring of an Ironic error body."""
    try:
        return json.loads(data['error_message'])['faultstring']
    except (TypeError, KeyError, ValueError):
        return None


def node_view(node_id):
    status, n = api('GET', '/v1/nodes/%s' % node_id)
    if status != 200:
        return {'status': status}
    return {k: n.get(k) for k in ('provision_state', 'target_provision_state', 'power_state',
                                  'target_power_state', 'instance_uuid', 'instance_info',
                                  'last_error', 'console_enabled', 'maintenance', 'traits')}


def wait_node(node_id, state, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        v = node_view(node_id)
        if v.get('provision_state') == state and v.get('target_provision_state') is None:
            return v
        time.sleep(0.2)
    raise RuntimeError('node %s did not reach %s: %s' % (node_id, state, node_view(node_id)))


def enroll_available(name, mac, traits=()):
    status, node = api('POST', '/v1/nodes', {
        'name': name, 'driver': 'fake-hardware', 'resource_class': 'baremetal',
        'properties': {'cpus': 4, 'memory_mb': 8192, 'local_gb': 100, 'cpu_arch': 'x86_64'},
        'console_interface': 'fake', 'rescue_interface': 'fake', 'deploy_interface': 'fake',
    })
    assert status == 201, (status, node)
    node_id = node['uuid']
    status, port = api('POST', '/v1/ports', {'node_uuid': node_id, 'address': mac})
    assert status == 201, (status, port)
    if traits:
        status, body = api('PUT', '/v1/nodes/%s/traits' % node_id, {'traits': list(traits)})
        assert status == 204, (status, body)
    for target, state in (('manage', 'manageable'), ('provide', 'available')):
        status, body = api('PUT', '/v1/nodes/%s/states/provision' % node_id, {'target': target})
        assert status == 202, (target, status, body)
        wait_node(node_id, state)
    # A fresh node's power state is unknown until the first sync; Nova treats unknown as unavailable.
    status, body = api('PUT', '/v1/nodes/%s/states/power' % node_id, {'target': 'power off'})
    assert status == 202, (status, body)
    deadline = time.time() + 30
    while node_view(node_id).get('power_state') != 'power off' and time.time() < deadline:
        time.sleep(0.2)
    return node_id, port['uuid']


def stored_configdrive(node_id):
    """The configdrive as stored in the server's DB (the API answers "******")."""
    with sqlite3.connect(IRONIC_DB) as db:
        row = db.execute('SELECT instance_info FROM nodes WHERE uuid = ?', (node_id,)).fetchone()
    info = json.loads(row[0]) if row and row[0] else {}
    return info.get('configdrive')


def read_configdrive(value):
    """Decodes base64(gzip(ISO)) and returns the files Nova's config drive carries."""
    iso = gzip.decompress(base64.b64decode(value))
    with tempfile.NamedTemporaryFile(suffix='.iso') as f:
        f.write(iso)
        f.flush()

        def extract(path):
            out = subprocess.run(['isoinfo', '-i', f.name, '-R', '-x', path], capture_output=True, check=True)
            return out.stdout

        listing = subprocess.run(['isoinfo', '-i', f.name, '-R', '-f'], capture_output=True, check=True)
        files = sorted(listing.stdout.decode().split())
        meta = json.loads(extract('/openstack/latest/meta_data.json'))
        network = json.loads(extract('/openstack/latest/network_data.json'))
        label = subprocess.run(['isoinfo', '-d', '-i', f.name], capture_output=True, check=True).stdout.decode()
        injected = {}
        for item in meta.get('files', []):
            injected[item['path']] = extract('/openstack/' + item['content_path'].lstrip('/')).decode()
    volume_id = [line.split(':', 1)[1].strip() for line in label.splitlines() if line.startswith('Volume id:')]
    return {'iso_bytes': len(iso), 'volume_id': volume_id[0] if volume_id else None, 'files': files,
            'meta_data': meta, 'network_data': network, 'injected': injected}


# ---------------------------------------------------------------- Nova setup


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
    inst = objects.Instance(context=ctx)
    inst.uuid = str(uuid.uuid4())
    inst.project_id = 'project-nova-compat'
    inst.user_id = 'user-nova-compat'
    inst.host = 'nova-compat'
    inst.node = node_id
    inst.display_name = name
    inst.hostname = name
    inst.image_ref = image_id
    inst.vm_state = 'building'
    inst.task_state = 'spawning'
    inst.power_state = 0
    inst.launch_index = 0
    inst.metadata = {'role': 'compat'}
    inst.system_metadata = {}
    inst.flavor = flavor
    inst.old_flavor = None
    inst.new_flavor = None
    inst.memory_mb = flavor.memory_mb
    inst.vcpus = flavor.vcpus
    inst.root_gb = flavor.root_gb
    inst.ephemeral_gb = 0
    inst.instance_type_id = flavor.id
    inst.config_drive = ''
    inst.key_data = None
    inst.availability_zone = 'nova'
    inst.create()
    return inst


def make_image_meta(image_id):
    from nova import objects
    return objects.ImageMeta.from_dict({
        'id': image_id, 'name': 'compat-image', 'disk_format': 'raw', 'container_format': 'bare',
        'min_disk': 0, 'min_ram': 0, 'size': 1024, 'status': 'active', 'properties': {}})


def make_network_info(vif_id, mac):
    """What Neutron would have given the compute manager for one port on a flat network."""
    from nova.network import model
    subnet = model.Subnet(cidr='192.0.2.0/24', gateway=model.IP(address='192.0.2.1', type='gateway'),
                          ips=[model.FixedIP(address='192.0.2.10')],
                          dns=[model.IP(address='192.0.2.2', type='dns')], version=4)
    network = model.Network(id=str(uuid.uuid4()), bridge='br-compat', label='compat-net', subnets=[subnet],
                            meta={'mtu': 1500})
    vif = model.VIF(id=vif_id, address=mac, network=network, type='other', vnic_type='baremetal',
                    active=True, details={})
    return model.NetworkInfo([vif])


# ---------------------------------------------------------------- steps


def step(name):
    """Runs the decorated function at once, recording its result or the exception Nova's driver raised."""
    def run(fn):
        entry = {'ok': True}
        started = time.time()
        try:
            out = fn()
            if out is not None:
                entry.update(out)
        except Exception as e:  # recorded for the Node test to assert
            entry = {'ok': False, 'error': type(e).__name__, 'message': str(e),
                     'trace': traceback.format_exc()[-3000:]}
        entry['seconds'] = round(time.time() - started, 2)
        RESULTS[name] = entry
        return entry
    return run


def expect_raise(fn):
    """The class and text of what fn raised (these steps are meant to fail)."""
    try:
        fn()
    except Exception as e:
        return {'raised': type(e).__name__, 'raised_message': str(e)}
    return {'raised': None}


def main():
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    begun = time.time()
    conf = write_nova_conf()
    # Both databases at once, while the nodes are enrolled: Nova's imports dominate the run time.
    syncs = [start_nova_manage(conf, 'api_db', 'sync'), start_nova_manage(conf, 'db', 'sync', '--local_cell')]
    suffix = uuid.uuid4().hex[:6]
    mac1, mac2 = '52:54:00:aa:bb:01', '52:54:00:aa:bb:02'
    node1, port1 = enroll_available('nova-compat-1-' + suffix, mac1)
    node2, _ = enroll_available('nova-compat-2-' + suffix, mac2,
                                traits=['CUSTOM_BROKEN_TEMPLATE', 'CUSTOM_NO_DEPLOY_STEP'])
    for proc in syncs:
        finish(proc)
    load_nova(conf)

    from nova import context as nova_context
    from nova.compute import provider_tree
    from nova.virt.ironic import driver as ironic_driver

    ctx = nova_context.get_admin_context()
    # An operator mistake Ironic rejects at validation: a template overriding the core deploy step.
    status, body = api('POST', '/v1/deploy_templates', {
        'name': 'CUSTOM_BROKEN_TEMPLATE',
        'steps': [{'interface': 'deploy', 'step': 'deploy', 'args': {}, 'priority': 50}]})
    assert status == 201, (status, body)
    # Accepted by validation (the core step may be disabled), but leaves the deployment without steps.
    status, body = api('POST', '/v1/deploy_templates', {
        'name': 'CUSTOM_NO_DEPLOY_STEP',
        'steps': [{'interface': 'deploy', 'step': 'deploy', 'args': {}, 'priority': 0}]})
    assert status == 201, (status, body)
    image_id = str(uuid.uuid4())
    image_meta = make_image_meta(image_id)
    vif_id = str(uuid.uuid4())
    network_info = make_network_info(vif_id, mac1)
    drv = ironic_driver.IronicDriver(None)
    RESULTS['setup'] = {'seconds': round(time.time() - begun, 2), 'node1': node1, 'node2': node2, 'port1': port1, 'vif': vif_id, 'image': image_id}

    @step('init_host')
    def _init():
        drv.init_host('nova-compat')

    @step('get_available_nodes')
    def _nodes():
        return {'nodes': sorted(drv.get_available_nodes()), 'node_is_available': drv.node_is_available(node1)}

    @step('get_available_resource')
    def _resource():
        res = drv.get_available_resource(node1)
        tree = provider_tree.ProviderTree()
        tree.new_root(node1, node1)
        drv.update_provider_tree(tree, node1)
        return {'resource': {k: res[k] for k in ('uuid', 'hypervisor_hostname', 'hypervisor_type',
                                                 'hypervisor_version', 'resource_class', 'vcpus',
                                                 'memory_mb', 'local_gb', 'supported_instances', 'stats')},
                'inventory': tree.data(node1).inventory, 'traits': sorted(tree.data(node1).traits)}

    inst = make_instance(ctx, node1, 'nova-compat-vm', image_id)
    files = [('/etc/compat.conf', b'hello from nova\n'), ('/root/.ssh/extra', b'second file')]

    @step('prepare_for_spawn')
    def _prepare():
        drv.prepare_for_spawn(inst)
        drv.prepare_networks_before_block_device_mapping(inst, network_info)
        status, vifs = api('GET', '/v1/nodes/%s/vifs' % node1)
        return {'node': node_view(node1), 'vifs_status': status, 'vifs': vifs}

    @step('spawn')
    def _spawn():
        drv.spawn(ctx, inst, image_meta, files, 'S3cr3t-admin', {}, network_info=network_info)
        view = node_view(node1)
        drive = stored_configdrive(node1)
        return {'node': view, 'configdrive': read_configdrive(drive) if drive else None,
                'instance_uuid': inst.uuid}

    @step('list_instances')
    def _list():
        return {'names': drv.list_instances(), 'uuids': drv.list_instance_uuids(),
                'exists': drv.instance_exists(inst)}

    @step('get_info')
    def _info():
        return {'state': drv.get_info(inst).state, 'state_uncached': drv.get_info(inst, use_cache=False).state}

    @step('reboot_soft')
    def _soft():
        drv.reboot(ctx, inst, network_info, 'SOFT')
        return {'node': node_view(node1)}

    @step('reboot_hard')
    def _hard():
        drv.reboot(ctx, inst, network_info, 'HARD')
        return {'node': node_view(node1)}

    @step('power_off')
    def _off():
        drv.power_off(inst)
        return {'node': node_view(node1), 'state': drv.get_info(inst, use_cache=False).state}

    @step('power_on')
    def _on():
        drv.power_on(ctx, inst, network_info)
        return {'node': node_view(node1), 'state': drv.get_info(inst, use_cache=False).state}

    @step('power_off_soft')
    def _soft_off():
        drv.power_off(inst, timeout=5)
        view = node_view(node1)
        drv.power_on(ctx, inst, network_info)
        return {'node': view}

    @step('rebuild')
    def _rebuild():
        inst.task_state = 'rebuilding'
        inst.save()
        new_image = str(uuid.uuid4())
        drv.rebuild(ctx, inst, make_image_meta(new_image), files, 'N3w-admin', {}, [], None, None,
                    network_info=network_info, preserve_ephemeral=False)
        inst.refresh()
        drive = stored_configdrive(node1)
        return {'node': node_view(node1), 'task_state': inst.task_state, 'image': new_image,
                'configdrive': read_configdrive(drive) if drive else None}

    @step('rescue')
    def _rescue():
        inst.task_state = None
        inst.save()
        drv.rescue(ctx, inst, network_info, image_meta, 'R3scue-pass', None)
        return {'node': node_view(node1)}

    @step('unrescue')
    def _unrescue():
        drv.unrescue(ctx, inst)
        return {'node': node_view(node1)}

    @step('console')
    def _console():
        disabled = expect_raise(lambda: drv.get_serial_console(ctx, inst))
        status, body = api('PUT', '/v1/nodes/%s/states/console' % node1, {'enabled': True})
        deadline = time.time() + 10
        while time.time() < deadline and not node_view(node1).get('console_enabled'):
            time.sleep(0.2)
        enabled = expect_raise(lambda: drv.get_serial_console(ctx, inst))
        _, console = api('GET', '/v1/nodes/%s/states/console' % node1)
        return {'disabled': disabled, 'enable_status': status, 'enabled': enabled, 'api_console': console}

    @step('crash_dump_and_volume_connector')
    def _nmi():
        from nova import objects
        out = {'crash_dump': expect_raise(lambda: drv.trigger_crash_dump(inst))}
        for kind, value in (('iqn', 'iqn.2026-12.org.example:compat'), ('ip', '192.0.2.10')):
            status, body = api('POST', '/v1/volume/connectors',
                               {'node_uuid': node1, 'type': kind, 'connector_id': value})
            assert status == 201, (status, body)
        # Neutron's answer as the compute manager caches it.
        inst.info_cache = objects.InstanceInfoCache(instance_uuid=inst.uuid, network_info=network_info)
        out['volume_connector'] = drv.get_volume_connector(inst)
        return out

    @step('attach_detach_interface')
    def _interfaces():
        extra = make_network_info(str(uuid.uuid4()), mac1)[0]
        drv.attach_interface(ctx, inst, image_meta, extra)
        status, attached = api('GET', '/v1/nodes/%s/vifs' % node1)
        drv.detach_interface(ctx, inst, extra)
        return {'vifs_status': status, 'vifs': attached, 'node': node_view(node1)}

    inst2 = make_instance(ctx, node1, 'nova-compat-second', image_id)

    @step('second_spawn_same_node')
    def _second():
        out = {'prepare': expect_raise(lambda: drv.prepare_for_spawn(inst2))}
        # A scheduler race: Nova read the node before the first instance landed, then reserves it.
        stale = drv._get_node(node1)
        stale.instance_id = None
        out['reserve'] = expect_raise(lambda: drv._set_instance_id(stale, inst2))
        status, body = api('PATCH', '/v1/nodes/%s' % node1,
                           [{'op': 'replace', 'path': '/instance_uuid', 'value': inst2.uuid}])
        out['http_status'] = status
        out['http_fault'] = fault(body)
        out['node'] = node_view(node1)
        return out

    @step('destroy')
    def _destroy():
        inst.task_state = 'deleting'
        inst.save()
        drv.destroy(ctx, inst, network_info)
        return {'node': node_view(node1), 'exists': drv.instance_exists(inst),
                'configdrive_stored': stored_configdrive(node1) is not None}

    inst3 = make_instance(ctx, node2, 'nova-compat-broken', image_id,
                          extra_specs={'trait:CUSTOM_BROKEN_TEMPLATE': 'required'})

    @step('failed_deploy')
    def _failed():
        drv.prepare_for_spawn(inst3)
        reserved = node_view(node2)
        out = {'reserved': reserved}
        out.update(expect_raise(lambda: drv.spawn(ctx, inst3, image_meta, [], None, {},
                                                  network_info=network_info)))
        status, validation = api('GET', '/v1/nodes/%s/validate' % node2)
        out['validate_deploy'] = validation.get('deploy') if status == 200 else status
        out['node'] = node_view(node2)
        return out

    inst4 = make_instance(ctx, node2, 'nova-compat-nosteps', image_id,
                          extra_specs={'trait:CUSTOM_NO_DEPLOY_STEP': 'required'})

    @step('failed_deploy_async')
    def _failed_async():
        drv.prepare_for_spawn(inst4)
        out = expect_raise(lambda: drv.spawn(ctx, inst4, image_meta, [], None, {}, network_info=network_info))
        out['node'] = node_view(node2)
        # What the compute manager does next with a failed build: destroy, which unprovisions.
        inst4.task_state = 'deleting'
        inst4.save()
        drv.destroy(ctx, inst4, network_info)
        out['after_destroy'] = node_view(node2)
        return out

    RESULTS['ironic_url'] = IRONIC_URL
    print(json.dumps(RESULTS, default=str))


if __name__ == '__main__':
    main()
