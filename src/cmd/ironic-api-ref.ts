/** `ironic-api-ref [DIR]`: writes api-ref/openapi.json and api-ref/index.html from the routers and schemas. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildHtml, buildOpenApi } from '../api/openapi/document';

function main(): void {
  const dir = path.resolve(process.argv[2] ?? path.join(__dirname, '..', '..', '..', 'api-ref'));
  fs.mkdirSync(dir, { recursive: true });
  const spec = buildOpenApi();
  fs.writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(spec, null, 2) + '\n');
  fs.writeFileSync(path.join(dir, 'index.html'), buildHtml(spec));
  process.stdout.write(`wrote ${path.join(dir, 'openapi.json')} and index.html\n`);
}

main();
