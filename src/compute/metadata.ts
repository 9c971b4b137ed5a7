/**
 * What Nova's InstanceMetadata answers for an instance (nova/api/metadata/base.py): the OpenStack
 * meta_data.json of each metadata version, and the EC2 meta-data the config drive also carries.
 * The keys and their order follow Nova's; values Nova takes from its own database (EC2 ids, the
 * reservation id) are made up here in the same shape.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ipVersion } from '../common/ip-address';
import type { InjectedFile, SpawnRequest } from './types';

/** OPENSTACK_VERSIONS, oldest first; `latest` answers as the newest. */
export const OPENSTACK_VERSIONS = ['2012-08-10', '2013-04-04', '2013-10-17', '2015-10-15', '2016-06-30', '2016-10-06', '2017-02-22', '2018-08-27', '2020-10-14'] as const;
/** The EC2 versions [api]config_drive_skip_versions leaves in a config drive by default. */
export const EC2_VERSIONS = ['2009-04-04', 'latest'] as const;

/** _DEFAULT_MAPPINGS: the block device mapping of an instance without a root device name. */
const DEFAULT_BLOCK_DEVICE_MAPPING = { ami: 'sda1', ephemeral0: 'sda2', root: '/dev/sda1', swap: 'sda3' };

/** Whether `version` is at least `required` (`latest` is newer than all). */
export function atLeast(version: string, required: string): boolean {
  const all: string[] = [...OPENSTACK_VERSIONS, 'latest'];
  return all.indexOf(version) >= all.indexOf(required);
}

/** Nova's API turns a display name into a hostname (utils.sanitize_hostname, default `server`). */
function hostnameOf(name: string): string {
  const h = name.replace(/[^\u0000-\u00ff]/g, '').slice(0, 63).replace(/[ _.]/g, '-').replace(/[^\w.-]+/g, '')
    .toLowerCase().replace(/^[.-]+|[.-]+$/g, '');
  return h || 'server';
}

/** `hostname.dhcp_domain`, as _get_hostname writes it ([api]dhcp_domain defaults to novalocal). */
function metadataHostname(req: SpawnRequest): string {
  const host = req.hostname ?? hostnameOf(req.name);
  const domain = req.dhcpDomain ?? 'novalocal';
  return domain ? `${host}.${domain}` : host;
}

/** InstanceMetadata.files: content/NNNN in the order given. */
function filesIndex(files: InjectedFile[] = []): Array<{ path: string; content_path: string }> {
  return files.map((f, i) => ({ path: f.path, content_path: `/content/${String(i).padStart(4, '0')}` }));
}

/** _metadata_as_json for one OpenStack version. */
export function openstackMetaData(req: SpawnRequest, version: string): Record<string, unknown> {
  const meta: Record<string, unknown> = { uuid: req.instanceUuid };
  if (req.metadata && Object.keys(req.metadata).length) meta.meta = req.metadata;
  if (req.files?.length) meta.files = filesIndex(req.files);
  if (req.adminPass) meta.admin_pass = req.adminPass;
  if (req.keyPair) {
    const kp = req.keyPair;
    meta.public_keys = { [kp.name]: kp.publicKey };
    meta.keys = [{ name: kp.name, type: kp.type ?? 'ssh', data: kp.publicKey }];
  }
  meta.hostname = metadataHostname(req);
  meta.name = req.name;
  meta.launch_index = 0;
  meta.availability_zone = req.availabilityZone ?? 'nova';
  if (atLeast(version, '2013-04-04')) meta.random_seed = randomBytes(512).toString('base64');
  if (atLeast(version, '2015-10-15')) meta.project_id = req.projectId ?? null;
  if (atLeast(version, '2016-06-30')) meta.devices = [];
  if (atLeast(version, '2020-10-14')) meta.dedicated_cpus = [];
  return meta;
}

/** `i-XXXXXXXX`: Nova numbers instances in its database; we take 32 bits of the uuid instead. */
function ec2InstanceId(uuid: string): string {
  return `i-${createHash('sha1').update(uuid).digest('hex').slice(0, 8)}`;
}

function firstFixedIpv4(req: SpawnRequest): string | null {
  for (const vif of req.networkInfo ?? []) {
    for (const s of vif.network.subnets) {
      const ip = s.ips.find((a) => ipVersion(a) === 4);
      if (ip) return ip;
    }
  }
  return null;
}

/** get_ec2_metadata(2009-04-04)['meta-data']; `latest` answers the same. */
export function ec2MetaData(req: SpawnRequest): Record<string, unknown> {
  const hostname = metadataHostname(req);
  const md: Record<string, unknown> = {
    'ami-id': null,
    'ami-launch-index': 0,
    'ami-manifest-path': 'FIXME',
    'instance-id': ec2InstanceId(req.instanceUuid),
    hostname,
    'local-ipv4': firstFixedIpv4(req),
    'reservation-id': req.reservationId ?? `r-${randomBytes(4).toString('hex')}`,
    'security-groups': [],
  };
  if (req.keyPair) md['public-keys'] = { 0: { _name: `0=${req.keyPair.name}`, 'openssh-key': req.keyPair.publicKey } };
  Object.assign(md, {
    'local-hostname': hostname,
    'public-hostname': hostname,
    'public-ipv4': '',
    'instance-type': req.flavor.name ?? 'baremetal',
    'block-device-mapping': { ...DEFAULT_BLOCK_DEVICE_MAPPING },
    placement: { 'availability-zone': req.availabilityZone ?? 'nova' },
    'instance-action': 'none',
  });
  return md;
}

export function filesForExtraData(files: InjectedFile[]): Array<{ path: string; contents: string }> {
  return files.map((f) => ({ path: f.path, contents: Buffer.from(f.contents).toString('base64') }));
}
