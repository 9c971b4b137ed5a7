/** _get_port_by_uuid: one Neutron port, its failures worded as Ironic words them. */
import { InvalidParameterValue, NetworkError } from '../errors';
import type { JsonObject } from '../json-value';
import type { NeutronClient } from './client';
import { NeutronApiError, NeutronNotFound } from './errors';

export async function portByUuid(client: NeutronClient, portId: string): Promise<JsonObject> {
  try {
    return await client.getPort(portId);
  } catch (err) {
    if (err instanceof NeutronNotFound) throw new InvalidParameterValue(`Neutron port ${portId} was not found`);
    if (err instanceof NeutronApiError) throw new NetworkError(`Could not retrieve neutron port: ${err.message}`);
    throw err;
  }
}
