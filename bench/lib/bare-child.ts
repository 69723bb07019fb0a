// The framework-overhead baseline: bare node:http answering every request with the same JSON bytes Folio sends.
// `node --import tsx bench/lib/bare-child.ts <file>` (tsx only transpiles at load) prints `listening <url>`.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const body = readFileSync(process.argv[2]);
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () =>
  console.log(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}`),
);
