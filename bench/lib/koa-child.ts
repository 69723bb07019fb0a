// The Koa floor: a bare Koa 3 app answering every request with the same JSON object (parsed once), no router,
// no auth. `node --import tsx bench/lib/koa-child.ts <file>` prints `listening <url>`.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';

const body = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const app = new Koa();
app.use((ctx) => {
  ctx.body = body;
});
const server = createServer(app.callback());
server.listen(0, '127.0.0.1', () =>
  console.log(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}`),
);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
