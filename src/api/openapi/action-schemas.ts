/**
 * Bodies of the node action endpoints, for api-ref only: the controllers validate these fields
 * one by one with Ironic's own messages, so these schemas describe rather than enforce.
 */
import type { Schema } from '../schemas/jsonschema';
import { VERBS } from '../../conductor/fsm';
import { V } from '../versions';

export const POWER_BODY_SCHEMA: Schema = {
  type: 'object',
  properties: {
    target: { type: 'string', enum: ['power on', 'power off', 'rebooting', 'soft power off', 'soft rebooting'] },
    timeout: { type: 'integer', minimum: 1, minVersion: V.SOFT_POWER_OFF },
  },
  required: ['target'],
};

export const PROVISION_BODY_SCHEMA: Schema = {
  type: 'object',
  properties: {
    target: {
      type: 'string',
      enum: Object.keys(VERBS),
    },
    configdrive: { type: ['string', 'object'] },
    clean_steps: { type: 'array', minVersion: V.MANUAL_CLEANING },
    deploy_steps: { type: 'array', minVersion: V.DEPLOY_STEPS_IN_PROVISION },
    rescue_password: { type: 'string', minVersion: V.RESCUE_INTERFACE },
    disable_ramdisk: { type: 'boolean', minVersion: V.DISABLE_RAMDISK },
    service_steps: { type: 'array', minVersion: V.SERVICE },
    runbook: { type: 'string', minVersion: V.RUNBOOKS },
    // ironic-ts extension: carried untouched to the deploy interface (admin password, files).
    extra_data: { type: 'object' },
  },
  required: ['target'],
};

export const BOOT_DEVICE_BODY_SCHEMA: Schema = {
  type: 'object',
  properties: {
    boot_device: { type: 'string' },
    persistent: { type: 'boolean' },
  },
  required: ['boot_device'],
};
