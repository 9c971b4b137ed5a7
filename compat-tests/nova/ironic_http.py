"""Plain HTTP to the Ironic under test (no Nova code): enrolment, node views, and the configdrive as
stored in the server's SQLite file (the API masks it as "******")."""
import base64
import gzip
import json
import os
import sqlite3
import subprocess
import tempfile
import time

import requests

IRONIC_URL = os.environ['IRONIC_URL'].rstrip('/')
IRONIC_DB = os.environ['IRONIC_DB']
HEADERS = {'X-OpenStack-Ironic-API-Version': '1.82'}


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
