"""Drives Debian's unmodified Nova ironic virt driver (nova.virt.ironic.driver.IronicDriver) against an
Ironic API at $IRONIC_URL and prints one JSON document of step results on stdout (the last line).

Environment: IRONIC_URL (API root), IRONIC_DB (the server's SQLite file, to read the stored configdrive that
the API masks), NOVA_WORKDIR (scratch folder for nova.conf, Nova's SQLite databases, state).

Only what would need Neutron is mocked (the security-group lookup of the metadata builder); network_info and
image meta are built locally as Nova's compute manager would hand them over. Every Ironic call is real.
Node state is read back with plain HTTP after each step.
"""
import inspect
import json
import logging
import sys
import time
import traceback
import uuid
from types import SimpleNamespace

from ironic_http import api, enroll_available, fault, node_view, read_configdrive, stored_configdrive, IRONIC_URL
from nova_env import (finish, load_nova, make_image_meta, make_instance, make_network_info, start_nova_manage,
                      write_nova_conf)

RESULTS = {}


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


def prepare_world():
    """Servers side: nodes made available, templates; Nova side: databases, config, the driver."""
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
    files = [('/etc/compat.conf', b'hello from nova\n'), ('/root/.ssh/extra', b'second file')]
    RESULTS['setup'] = {'seconds': round(time.time() - begun, 2), 'node1': node1, 'node2': node2,
                        'port1': port1, 'vif': vif_id, 'image': image_id}
    return SimpleNamespace(drv=drv, ctx=ctx, node1=node1, node2=node2, mac1=mac1, image_id=image_id,
                           image_meta=image_meta, network_info=network_info, files=files)


def lifecycle(w):
    """One instance from spawn to destroy on node1, with a second instance refused on the way."""
    from nova.compute import provider_tree

    @step('init_host')
    def _init():
        w.drv.init_host('nova-compat')

    @step('get_available_nodes')
    def _nodes():
        return {'nodes': sorted(w.drv.get_available_nodes()),
                'node_is_available': w.drv.node_is_available(w.node1)}

    @step('get_available_resource')
    def _resource():
        res = w.drv.get_available_resource(w.node1)
        tree = provider_tree.ProviderTree()
        tree.new_root(w.node1, w.node1)
        w.drv.update_provider_tree(tree, w.node1)
        return {'resource': {k: res[k] for k in ('uuid', 'hypervisor_hostname', 'hypervisor_type',
                                                 'hypervisor_version', 'resource_class', 'vcpus',
                                                 'memory_mb', 'local_gb', 'supported_instances', 'stats')},
                'inventory': tree.data(w.node1).inventory, 'traits': sorted(tree.data(w.node1).traits)}

    w.inst = make_instance(w.ctx, w.node1, 'nova-compat-vm', w.image_id)

    @step('prepare_for_spawn')
    def _prepare():
        w.drv.prepare_for_spawn(w.inst)
        w.drv.prepare_networks_before_block_device_mapping(w.inst, w.network_info)
        status, vifs = api('GET', '/v1/nodes/%s/vifs' % w.node1)
        return {'node': node_view(w.node1), 'vifs_status': status, 'vifs': vifs}

    @step('spawn')
    def _spawn():
        w.drv.spawn(w.ctx, w.inst, w.image_meta, w.files, 'S3cr3t-admin', {}, network_info=w.network_info)
        view = node_view(w.node1)
        drive = stored_configdrive(w.node1)
        return {'node': view, 'configdrive': read_configdrive(drive) if drive else None,
                'instance_uuid': w.inst.uuid}

    @step('list_instances')
    def _list():
        # As the compute manager's periodic task does: Nova 31 answers from a node cache filled by it.
        w.drv.get_available_nodes(refresh=True)
        return {'names': w.drv.list_instances(), 'uuids': w.drv.list_instance_uuids(),
                'exists': w.drv.instance_exists(w.inst)}

    @step('get_info')
    def _info():
        return {'state': w.drv.get_info(w.inst).state,
                'state_uncached': w.drv.get_info(w.inst, use_cache=False).state}

    @step('reboot_soft')
    def _soft():
        w.drv.reboot(w.ctx, w.inst, w.network_info, 'SOFT')
        return {'node': node_view(w.node1)}

    @step('reboot_hard')
    def _hard():
        w.drv.reboot(w.ctx, w.inst, w.network_info, 'HARD')
        return {'node': node_view(w.node1)}

    @step('power_off')
    def _off():
        w.drv.power_off(w.inst)
        return {'node': node_view(w.node1), 'state': w.drv.get_info(w.inst, use_cache=False).state}

    @step('power_on')
    def _on():
        w.drv.power_on(w.ctx, w.inst, w.network_info)
        return {'node': node_view(w.node1), 'state': w.drv.get_info(w.inst, use_cache=False).state}

    @step('power_off_soft')
    def _soft_off():
        w.drv.power_off(w.inst, timeout=5)
        view = node_view(w.node1)
        w.drv.power_on(w.ctx, w.inst, w.network_info)
        return {'node': view}

    @step('rebuild')
    def _rebuild():
        w.inst.task_state = 'rebuilding'
        w.inst.save()
        new_image = str(uuid.uuid4())
        w.drv.rebuild(w.ctx, w.inst, make_image_meta(new_image), w.files, 'N3w-admin', {}, [], None, None,
                    network_info=w.network_info, preserve_ephemeral=False)
        w.inst.refresh()
        drive = stored_configdrive(w.node1)
        return {'node': node_view(w.node1), 'task_state': w.inst.task_state, 'image': new_image,
                'configdrive': read_configdrive(drive) if drive else None}

    @step('rescue')
    def _rescue():
        w.inst.task_state = None
        w.inst.save()
        args = [w.ctx, w.inst, w.network_info, w.image_meta, 'R3scue-pass', None]
        # Nova 2024.1 added share_info (virtiofs shares; none for bare metal).
        if 'share_info' in inspect.signature(w.drv.rescue).parameters:
            args.append(None)
        w.drv.rescue(*args)
        return {'node': node_view(w.node1)}

    @step('unrescue')
    def _unrescue():
        w.drv.unrescue(w.ctx, w.inst)
        return {'node': node_view(w.node1)}

    @step('console')
    def _console():
        disabled = expect_raise(lambda: w.drv.get_serial_console(w.ctx, w.inst))
        status, body = api('PUT', '/v1/nodes/%s/states/console' % w.node1, {'enabled': True})
        deadline = time.time() + 10
        while time.time() < deadline and not node_view(w.node1).get('console_enabled'):
            time.sleep(0.2)
        enabled = expect_raise(lambda: w.drv.get_serial_console(w.ctx, w.inst))
        _, console = api('GET', '/v1/nodes/%s/states/console' % w.node1)
        return {'disabled': disabled, 'enable_status': status, 'enabled': enabled, 'api_console': console}

    @step('crash_dump_and_volume_connector')
    def _nmi():
        from nova import objects
        out = {'crash_dump': expect_raise(lambda: w.drv.trigger_crash_dump(w.inst))}
        for kind, value in (('iqn', 'iqn.2026-12.org.example:compat'), ('ip', '192.0.2.10')):
            status, body = api('POST', '/v1/volume/connectors',
                               {'node_uuid': w.node1, 'type': kind, 'connector_id': value})
            assert status == 201, (status, body)
        # Neutron's answer as the compute manager caches it.
        w.inst.info_cache = objects.InstanceInfoCache(instance_uuid=w.inst.uuid, network_info=w.network_info)
        out['volume_connector'] = w.drv.get_volume_connector(w.inst)
        return out

    @step('attach_detach_interface')
    def _interfaces():
        extra = make_network_info(str(uuid.uuid4()), w.mac1)[0]
        w.drv.attach_interface(w.ctx, w.inst, w.image_meta, extra)
        status, attached = api('GET', '/v1/nodes/%s/vifs' % w.node1)
        w.drv.detach_interface(w.ctx, w.inst, extra)
        return {'vifs_status': status, 'vifs': attached, 'node': node_view(w.node1)}

    inst2 = make_instance(w.ctx, w.node1, 'nova-compat-second', w.image_id)

    @step('second_spawn_same_node')
    def _second():
        out = {'prepare': expect_raise(lambda: w.drv.prepare_for_spawn(inst2))}
        # A scheduler race: Nova read the node before the first instance landed, then reserves it.
        stale = w.drv._get_node(w.node1)
        stale.instance_id = None
        out['reserve'] = expect_raise(lambda: w.drv._set_instance_id(stale, inst2))
        status, body = api('PATCH', '/v1/nodes/%s' % w.node1,
                           [{'op': 'replace', 'path': '/instance_uuid', 'value': inst2.uuid}])
        out['http_status'] = status
        out['http_fault'] = fault(body)
        out['node'] = node_view(w.node1)
        return out

    @step('destroy')
    def _destroy():
        w.inst.task_state = 'deleting'
        w.inst.save()
        w.drv.destroy(w.ctx, w.inst, w.network_info)
        return {'node': node_view(w.node1), 'exists': w.drv.instance_exists(w.inst),
                'configdrive_stored': stored_configdrive(w.node1) is not None}


def failures(w):
    """Deployments Ironic refuses (validation) and fails (conductor), on node2."""
    inst3 = make_instance(w.ctx, w.node2, 'nova-compat-broken', w.image_id,
                          extra_specs={'trait:CUSTOM_BROKEN_TEMPLATE': 'required'})

    @step('failed_deploy')
    def _failed():
        w.drv.prepare_for_spawn(inst3)
        reserved = node_view(w.node2)
        out = {'reserved': reserved}
        out.update(expect_raise(lambda: w.drv.spawn(w.ctx, inst3, w.image_meta, [], None, {},
                                                    network_info=w.network_info)))
        status, validation = api('GET', '/v1/nodes/%s/validate' % w.node2)
        out['validate_deploy'] = validation.get('deploy') if status == 200 else status
        out['node'] = node_view(w.node2)
        return out

    inst4 = make_instance(w.ctx, w.node2, 'nova-compat-nosteps', w.image_id,
                          extra_specs={'trait:CUSTOM_NO_DEPLOY_STEP': 'required'})

    @step('failed_deploy_async')
    def _failed_async():
        w.drv.prepare_for_spawn(inst4)
        out = expect_raise(lambda: w.drv.spawn(w.ctx, inst4, w.image_meta, [], None, {},
                                               network_info=w.network_info))
        out['node'] = node_view(w.node2)
        # What the compute manager does next with a failed build: destroy, which unprovisions.
        inst4.task_state = 'deleting'
        inst4.save()
        w.drv.destroy(w.ctx, inst4, w.network_info)
        out['after_destroy'] = node_view(w.node2)
        return out


def main():
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    w = prepare_world()
    lifecycle(w)
    failures(w)
    RESULTS['ironic_url'] = IRONIC_URL
    print(json.dumps(RESULTS, default=str))


if __name__ == '__main__':
    main()
