/**
 * Target RAID configuration validation (common/raid.py validate_configuration against
 * drivers/raid_config_schema.json), shared by every RAID interface's validateRaidConfig.
 */
import { InvalidParameterValue } from '../../common/errors';
import { bestMatch, iterErrors, Schema } from '../../common/jsonschema';
import type { JsonObject } from '../base';
import { RAID_LOGICAL_DISK_PROPERTIES as D } from './logical-disk-properties';

/** raid_config_schema.json, keyword order kept: it decides which error python-jsonschema reports. */
const RAID_CONFIG_SCHEMA: Schema = {
  type: 'object',
  properties: {
    logical_disks: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          raid_level: {
            type: 'string', enum: ['JBOD', '0', '1', '2', '5', '6', '1+0', '5+0', '6+0'], description: D.raid_level,
          },
          size_gb: {
            anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string', enum: ['MAX'] }], description: D.size_gb,
          },
          volume_name: { type: 'string', description: D.volume_name },
          is_root_volume: { type: 'boolean', description: D.is_root_volume },
          share_physical_disks: { type: 'boolean', description: D.share_physical_disks },
          disk_type: { type: 'string', enum: ['hdd', 'ssd'], description: D.disk_type },
          interface_type: { type: 'string', enum: ['sata', 'scsi', 'sas'], description: D.interface_type },
          number_of_physical_disks: {
            type: 'integer', minimum: 0, exclusiveMinimum: true, description: D.number_of_physical_disks,
          },
          controller: { type: 'string', description: D.controller },
          physical_disks: {
            anyOf: [
              { type: 'array', items: { type: 'string' } },
              { type: 'array', items: { type: 'object' }, minItems: 2 },
            ],
            description: D.physical_disks,
          },
        },
        required: ['raid_level', 'size_gb'],
        additionalProperties: false,
        dependencies: { physical_disks: ['controller'] },
      },
      minItems: 1,
    },
  },
  required: ['logical_disks'],
  additionalProperties: false,
};

/** Throws InvalidParameterValue as Ironic words it: the schema's best error, then the root-volume rule. */
export function validateRaidConfiguration(config: JsonObject, schema: Schema = RAID_CONFIG_SCHEMA): void {
  const best = bestMatch(iterErrors(config, schema));
  if (best) throw new InvalidParameterValue(`RAID config validation error: ${best.message}`);
  checkRootVolumes(config);
}

function checkRootVolumes(config: JsonObject): void {
  const disks = config.logical_disks as JsonObject[];
  const roots = disks.filter((d) => Boolean(d.is_root_volume));
  if (roots.length > 1) {
    throw new InvalidParameterValue(
      `Raid config cannot have more than one root volume. ${roots.length} root volumes were specified`);
  }
}
