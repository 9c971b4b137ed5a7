/**
 * The program behind stalling-image-server.ts, run inside a lab namespace:
 * `node stalling-image-server-main.js FILE ADDRESS PORT`. HEAD answers with FILE's length (the
 * conductor's check of an http image_source); GET sends the headers and the first MiB, prints
 * `GET <path>` on stdout, then never sends the rest, so the agent stays inside its download.
 */
import { createReadStream, promises as fsp } from 'node:fs';
import * as http from 'node:http';

const [file, address, port] = process.argv.slice(2);
const FIRST = 1024 * 1024;

async function main(): Promise<void> {
  const { size } = await fsp.stat(file);
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(size) });
    if (req.method !== 'GET') {
      res.end();
      return;
    }
    process.stdout.write(`GET ${req.url ?? ''}\n`);
    createReadStream(file, { start: 0, end: Math.min(size, FIRST) - 1 }).on('data', (chunk) => res.write(chunk));
  });
  server.listen(Number(port), address, () => process.stdout.write('listening\n'));
}

void main();
