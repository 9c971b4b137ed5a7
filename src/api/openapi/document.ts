/**
 * Builds api-ref/: an OpenAPI 3.1 document from the routers and the request schemas the server
 * validates with, and a readable HTML page from the same data.
 */
import type { Schema } from '../schemas/jsonschema';
import { MAX_MINOR, MIN_MINOR, versionString } from '../versions';
import { endpointDoc } from './endpoints';
import { servedRoutes } from './routes';

type Json = Record<string, unknown>;

/** `:node_ident` → `{node_ident}`; a `*rest` wildcard becomes a plain parameter. */
function openApiPath(path: string): string {
  return path.replace(/[:*](\w+)/g, '{$1}');
}

function toJsonSchema(schema: Schema): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'minVersion') out['x-min-version'] = versionString(value as number);
    else if (key === 'properties') {
      out.properties = Object.fromEntries(Object.entries(value as Record<string, Schema>).map(([k, v]) => [k, toJsonSchema(v)]));
    } else if (key === 'items') out.items = toJsonSchema(value as Schema);
    else if (key === 'anyOf') out.anyOf = (value as Schema[]).map(toJsonSchema);
    else out[key] = value;
  }
  return out;
}

const ERROR_RESPONSE = {
  description: 'Error: `error_message` holds a JSON string with faultcode, faultstring and debuginfo',
  content: { 'application/json': { schema: { type: 'object', properties: { error_message: { type: 'string' } } } } },
};

export function buildOpenApi(): Json {
  const paths: Record<string, Json> = {};
  for (const { method, path } of servedRoutes()) {
    const doc = endpointDoc(method, path);
    if (!doc) throw new Error(`api-ref: no documentation for ${method} ${path} (add it to src/api/openapi/endpoints.ts)`);
    const params = [...path.matchAll(/[:*](\w+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    const operation: Json = {
      summary: doc.summary,
      'x-min-version': versionString(doc.minVersion),
      parameters: [
        ...params,
        { name: 'X-OpenStack-Ironic-API-Version', in: 'header', required: false, schema: { type: 'string' }, description: 'Requested microversion (1.N or latest); 1.1 when absent' },
      ],
      responses: { [String(doc.status)]: { description: doc.methodNotAllowed ? 'Method not allowed' : 'Success' }, default: ERROR_RESPONSE },
    };
    if (doc.body) operation.requestBody = { required: true, content: { 'application/json': { schema: toJsonSchema(doc.body) } } };
    const key = openApiPath(path);
    paths[key] = { ...(paths[key] ?? {}), [method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'ironic-ts Bare Metal API (OpenStack Ironic v1)',
      version: versionString(MAX_MINOR),
      description: `Microversions ${versionString(MIN_MINOR)} to ${versionString(MAX_MINOR)}. Gated endpoints answer 404 below their x-min-version; gated fields and parameters answer 406.`,
    },
    servers: [{ url: 'http://127.0.0.1:6385' }],
    paths,
  };
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function buildHtml(spec: Json): string {
  const rows: string[] = [];
  for (const [path, ops] of Object.entries(spec.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(ops)) {
      const status = Object.keys(op.responses as Json).find((k) => k !== 'default');
      const body = op.requestBody
        ? `<details><summary>body</summary><pre>${escapeHtml(JSON.stringify((op.requestBody as { content: Record<string, { schema: unknown }> }).content['application/json'].schema, null, 2))}</pre></details>`
        : '';
      rows.push(`<tr><td><code>${method.toUpperCase()}</code></td><td><code>${escapeHtml(path)}</code></td><td>${escapeHtml(String(op.summary))}${body}</td><td>${op['x-min-version']}</td><td>${status}</td></tr>`);
    }
  }
  const info = spec.info as Json;
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(String(info.title))}</title>
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;vertical-align:top}pre{font-size:12px}</style>
</head><body>
<h1>${escapeHtml(String(info.title))}</h1>
<p>${escapeHtml(String(info.description))}</p>
<p>Errors: <code>{"error_message": "{\\"faultcode\\": \\"Client\\", \\"faultstring\\": \\"...\\", \\"debuginfo\\": null}"}</code>. Machine-readable: <a href="openapi.json">openapi.json</a>.</p>
<table><tr><th>method</th><th>path</th><th>what</th><th>since</th><th>status</th></tr>
${rows.join('\n')}
</table></body></html>
`;
}
