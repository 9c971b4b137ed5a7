"""A Cinder volume driver for the compat tests: file-backed volumes exported by tgtd.

This machine has loop devices but no device-mapper, so Cinder's LVM driver cannot run. This
driver keeps each volume as a sparse file under ``tgt_volumes_dir`` and, when Cinder
initializes a connection, exports it as LUN 1 of an iSCSI target of its own through a tgtd
(reached on its control port, ``tgtadm -C``): the target admits only the connector's initiator
IQN and one CHAP account whose credentials Cinder keeps in the volume's provider_auth. The
connection info is the real one a host would log in with (target_iqn, target_portal,
target_lun, auth_method/auth_username/auth_password). Terminating the connection removes the
target and its account.

Loaded by cinder-volume as ``volume_driver = cinder_tgt_driver.TgtFileDriver`` with this
directory on PYTHONPATH; its options live in the backend's section of cinder.conf.
"""

import os
import re
import secrets
import subprocess
import threading

from oslo_config import cfg
from oslo_log import log as logging

from cinder import exception
from cinder.volume import driver

LOG = logging.getLogger(__name__)

OPTS = [
    cfg.StrOpt('tgt_volumes_dir', help='Directory of the volume files.'),
    cfg.IntOpt('tgt_control_port', help='Control port of the tgtd (tgtadm -C).'),
    cfg.StrOpt('tgt_portal', help='host:port of the tgtd iSCSI portal.'),
    cfg.StrOpt('tgt_iqn_prefix', default='iqn.2010-10.org.openstack:',
               help='Prefix of the target IQNs (the volume name follows).'),
]

GIB = 1024 ** 3


class TgtFileDriver(driver.VolumeDriver):
    VERSION = '1.0.0'

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.configuration.append_config_values(OPTS)
        self._lock = threading.Lock()

    # Helpers

    def _conf(self, name):
        return self.configuration.safe_get(name)

    def _tgtadm(self, *args):
        cmd = ['tgtadm', '-C', str(self._conf('tgt_control_port')), '--lld', 'iscsi', *args]
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            raise exception.VolumeBackendAPIException(
                data='%s failed: %s' % (' '.join(cmd), proc.stderr.strip() or proc.stdout.strip()))
        return proc.stdout

    def _path(self, volume):
        return os.path.join(self._conf('tgt_volumes_dir'), volume.name)

    def _iqn(self, volume):
        return '%s%s' % (self._conf('tgt_iqn_prefix'), volume.name)

    def _targets(self):
        """{iqn: tid} of the targets tgtd serves."""
        out = self._tgtadm('--op', 'show', '--mode', 'target')
        return {m.group(2): int(m.group(1)) for m in re.finditer(r'^Target (\d+): (\S+)$', out, re.M)}

    @staticmethod
    def _chap(volume):
        parts = (volume.provider_auth or '').split()
        return (parts[1], parts[2]) if len(parts) == 3 and parts[0] == 'CHAP' else (None, None)

    def _unexport(self, volume):
        with self._lock:
            tid = self._targets().get(self._iqn(volume))
            if tid is not None:
                self._tgtadm('--op', 'delete', '--mode', 'target', '--tid', str(tid), '--force')
            user, _password = self._chap(volume)
            if user and user in self._tgtadm('--op', 'show', '--mode', 'account'):
                self._tgtadm('--op', 'delete', '--mode', 'account', '--user', user)

    # Driver interface

    def do_setup(self, context):
        os.makedirs(self._conf('tgt_volumes_dir'), exist_ok=True)

    def check_for_setup_error(self):
        self._targets()

    def get_volume_stats(self, refresh=False):
        if refresh or not self._stats:
            self._stats = {
                'volume_backend_name': self._conf('volume_backend_name') or 'tgtfile',
                'vendor_name': 'ironic-ts compat tests',
                'driver_version': self.VERSION,
                'storage_protocol': 'iSCSI',
                'total_capacity_gb': 100,
                'free_capacity_gb': 100,
                'reserved_percentage': 0,
                'thin_provisioning_support': True,
                'multiattach': False,
            }
        return self._stats

    def create_volume(self, volume):
        with open(self._path(volume), 'wb') as f:
            f.truncate(volume.size * GIB)

    def delete_volume(self, volume):
        self._unexport(volume)
        try:
            os.unlink(self._path(volume))
        except FileNotFoundError:
            pass

    def extend_volume(self, volume, new_size):
        os.truncate(self._path(volume), new_size * GIB)

    def local_path(self, volume):
        return self._path(volume)

    def ensure_export(self, context, volume):
        pass

    def create_export(self, context, volume, connector):
        """Gives the volume its CHAP account once; the target is made per connection."""
        if self._chap(volume)[0]:
            return None
        user = 'chap-%s' % volume.id[:8]
        return {'provider_auth': 'CHAP %s %s' % (user, secrets.token_hex(8))}

    def remove_export(self, context, volume):
        self._unexport(volume)

    def validate_connector(self, connector):
        if not connector.get('initiator'):
            raise exception.InvalidConnectorException(missing='initiator')

    def initialize_connection(self, volume, connector):
        iqn = self._iqn(volume)
        user, password = self._chap(volume)
        with self._lock:
            targets = self._targets()
            if iqn not in targets:
                tid = max(targets.values(), default=0) + 1
                self._tgtadm('--op', 'new', '--mode', 'target', '--tid', str(tid), '-T', iqn)
                self._tgtadm('--op', 'new', '--mode', 'logicalunit', '--tid', str(tid), '--lun', '1',
                             '-b', self._path(volume))
                self._tgtadm('--op', 'bind', '--mode', 'target', '--tid', str(tid),
                             '--initiator-name', connector['initiator'])
                if user:
                    if user not in self._tgtadm('--op', 'show', '--mode', 'account'):
                        self._tgtadm('--op', 'new', '--mode', 'account', '--user', user, '--password', password)
                    self._tgtadm('--op', 'bind', '--mode', 'account', '--tid', str(tid), '--user', user)
        data = {
            'target_discovered': False,
            'target_iqn': iqn,
            'target_portal': self._conf('tgt_portal'),
            'target_lun': 1,
            'volume_id': volume.id,
            'encrypted': False,
        }
        if user:
            data.update(auth_method='CHAP', auth_username=user, auth_password=password)
        LOG.info('Exported volume %s as %s to %s', volume.id, iqn, connector['initiator'])
        return {'driver_volume_type': 'iscsi', 'data': data}

    def terminate_connection(self, volume, connector, **kwargs):
        self._unexport(volume)
        LOG.info('Removed the export of volume %s', volume.id)
