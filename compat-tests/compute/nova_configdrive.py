"""Builds the config drive Debian's unmodified Nova ironic driver builds for one instance
(IronicDriver._generate_configdrive: InstanceMetadata + ConfigDriveBuilder, network_data.json
overlaid with the node's ports from the Ironic API at $IRONIC_URL), and the instance_info patch it
sends before a deploy (patcher.create(node).get_deploy_patch), and prints both as one JSON line:
{"configdrive": "<base64 gzip ISO>", "deploy_patch": [...]}.

The instance comes from $INSTANCE_SPEC (JSON, the compute shim's own spelling): uuid, name,
hostname, key_name, public_key, user_data, admin_pass, files [{path, contents}], metadata,
project_id, node, image, flavor {name, memory_mb, vcpus, root_gb, swap, ephemeral_gb, extra_specs}, network_info [{id, address, type, network: {id, label, mtu, subnets: [{cidr,
gateway, ips, dns, routes}]}}]. Environment otherwise as nova_lifecycle.py (NOVA_WORKDIR).
"""
import base64
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'nova'))

from nova_env import finish, load_nova, new_instance, start_nova_manage, write_nova_conf  # noqa: E402


def network_info_from(spec):
    from nova.network import model
    vifs = []
    for v in spec:
        subnets = []
        for s in v['network'].get('subnets', []):
            version = 6 if ':' in s['cidr'] else 4
            subnets.append(model.Subnet(
                cidr=s['cidr'], version=version,
                gateway=model.IP(address=s['gateway'], type='gateway') if s.get('gateway') else None,
                ips=[model.FixedIP(address=ip) for ip in s.get('ips', [])],
                dns=[model.IP(address=d, type='dns') for d in s.get('dns', [])],
                routes=[model.Route(cidr=r['cidr'], gateway=model.IP(address=r['gateway'], type='gateway'))
                        for r in s.get('routes', [])]))
        meta = {'mtu': v['network']['mtu']} if v['network'].get('mtu') else {}
        network = model.Network(id=v['network']['id'], label=v['network'].get('label'), subnets=subnets, meta=meta)
        vifs.append(model.VIF(id=v['id'], address=v.get('address'), network=network, type=v.get('type', 'other'),
                              vnic_type='baremetal', active=True, details={}))
    return model.NetworkInfo(vifs)


def make_instance(ctx, spec):
    from nova import objects
    f = spec['flavor']
    flavor = objects.Flavor(
        id=1, flavorid='bm1', name=f['name'], memory_mb=f['memory_mb'], vcpus=f['vcpus'], root_gb=f['root_gb'],
        ephemeral_gb=f.get('ephemeral_gb', 0), swap=f.get('swap', 0), rxtx_factor=1.0, vcpu_weight=0, disabled=False,
        is_public=True, description=None, extra_specs=dict({'resources:CUSTOM_BAREMETAL': '1'}, **f.get('extra_specs', {})))
    fields = dict(uuid=spec['uuid'], project_id=spec.get('project_id'), user_id='user-compat', node=spec['node'],
                  display_name=spec['name'], hostname=spec['hostname'], image_ref=spec.get('image', ''),
                  reservation_id='r-compat01', metadata=spec.get('metadata', {}), config_drive='True')
    if spec.get('user_data') is not None:
        fields['user_data'] = base64.b64encode(spec['user_data'].encode()).decode()
    if spec.get('public_key'):
        fields.update(key_name=spec['key_name'], key_data=spec['public_key'], keypairs=objects.KeyPairList(objects=[
            objects.KeyPair(name=spec['key_name'], public_key=spec['public_key'], type='ssh', user_id='user-compat')]))
    return new_instance(ctx, flavor, **fields)


def main():
    spec = json.loads(os.environ['INSTANCE_SPEC'])
    conf = write_nova_conf()
    for proc in [start_nova_manage(conf, 'api_db', 'sync'), start_nova_manage(conf, 'db', 'sync', '--local_cell')]:
        finish(proc)
    load_nova(conf)
    from nova import context as nova_context
    from nova.virt.ironic import driver as ironic_driver
    ctx = nova_context.get_admin_context()
    inst = make_instance(ctx, spec)
    drv = ironic_driver.IronicDriver(None)
    node = drv._get_node(spec['node'])
    extra_md = {'admin_pass': spec['admin_pass']} if spec.get('admin_pass') else {}
    files = [(f['path'], f['contents'].encode()) for f in spec.get('files', [])]
    value = drv._generate_configdrive(ctx, inst, node, network_info_from(spec.get('network_info', [])),
                                      extra_md=extra_md, files=files)
    from nova import objects
    from nova.virt.ironic import patcher
    image_meta = objects.ImageMeta.from_dict({'id': spec['image'], 'name': 'compare-image', 'disk_format': 'raw',
                                              'container_format': 'bare', 'properties': {}})
    patch = patcher.create(node).get_deploy_patch(inst, image_meta, inst.flavor)
    print(json.dumps({'configdrive': value.decode(), 'deploy_patch': patch}))


if __name__ == '__main__':
    main()
