"""Nova's unmodified ironic virt driver spawning and destroying one instance whose VIF is a real
Neutron port (the network_info the compute manager would get from Neutron for it), against an
Ironic whose node has the neutron network interface. The test checks Neutron between the phases.

Environment: IRONIC_URL, IRONIC_DB (for ironic_http), NOVA_WORKDIR (scratch: nova.conf, Nova's
SQLite databases), NODE_ID, IMAGE_REF (the image Ironic deploys: image_meta's id), VIF (the Neutron
port as JSON) and SUBNET (its subnet as JSON).

Protocol: one JSON line on stdout per phase ({"phase": "spawned", ...}, then "destroyed"); after
"spawned" the script waits for a line on stdin before destroying.
"""
import json
import logging
import os
import sys

from ironic_http import api, node_view
from nova_env import finish, load_nova, make_image_meta, make_instance, make_network_info, start_nova_manage, write_nova_conf


def emit(phase, **fields):
    print(json.dumps(dict(fields, phase=phase), default=str), flush=True)


def vifs(node_id):
    status, body = api('GET', '/v1/nodes/%s/vifs' % node_id)
    assert status == 200, (status, body)
    return [v['id'] for v in body['vifs']]


def main():
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    conf = write_nova_conf()
    for proc in [start_nova_manage(conf, 'api_db', 'sync'), start_nova_manage(conf, 'db', 'sync', '--local_cell')]:
        finish(proc)
    load_nova(conf)
    from nova import context as nova_context
    from nova.virt.ironic import driver as ironic_driver

    node_id = os.environ['NODE_ID']
    port = json.loads(os.environ['VIF'])
    subnet = json.loads(os.environ['SUBNET'])
    network_info = make_network_info(port['id'], port['mac_address'], network_id=port['network_id'],
                                     cidr=subnet['cidr'], ip=port['fixed_ips'][0]['ip_address'],
                                     gateway=subnet['gateway_ip'])
    ctx = nova_context.get_admin_context()
    image = os.environ['IMAGE_REF']
    inst = make_instance(ctx, node_id, 'nova-neutron-vm', image)
    drv = ironic_driver.IronicDriver(None)

    drv.prepare_for_spawn(inst)
    drv.prepare_networks_before_block_device_mapping(inst, network_info)
    drv.spawn(ctx, inst, make_image_meta(image), [], 'S3cr3t-admin', {}, network_info=network_info)
    emit('spawned', node=node_view(node_id), vifs=vifs(node_id), instance=inst.uuid)

    sys.stdin.readline()
    inst.task_state = 'deleting'
    inst.save()
    drv.destroy(ctx, inst, network_info)
    emit('destroyed', node=node_view(node_id), vifs=vifs(node_id))


if __name__ == '__main__':
    main()
