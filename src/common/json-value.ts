/** A decoded JSON object whose members are not narrowed yet: node dicts, RPC arguments, agent data. */
export type JsonObject = Record<string, unknown>;

/** The objects among a decoded JSON array's items (none when it is not an array): fixed_ips, host_routes, segments... */
export function objectsIn(value: unknown): JsonObject[] {
  return Array.isArray(value) ? value.filter((v): v is JsonObject => !!v && typeof v === 'object' && !Array.isArray(v)) : [];
}
