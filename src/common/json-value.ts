/** A decoded JSON object whose members are not narrowed yet: node dicts, RPC arguments, agent data. */
export type JsonObject = Record<string, unknown>;
