// Folio for bench/mcp.ts, in its own process (so its RSS can be read): `node --import tsx bench/lib/mcp-folio-child.ts
// <dataDir> <assets>`. Rate limits off, `assets` small text files uploaded, one key with the assets service.
// Prints one JSON line: { url, key }.
import { createServer } from '../../server/app.js';

const [dataDir, assetsArg] = process.argv.slice(2);
const limits = {
  jsonBytes: 1 << 20,
  uploadBytes: 1 << 20,
  transcribeBytes: 1 << 20,
  rateLimitPerMinute: 1e9,
  rateLimitBurst: 1e9,
};
const server = await createServer({ port: 0, dataDir, fsync: false, limits, quiet: true }, () => {});
const { url } = await server.listen();
const link = await server.deps.identity.mintSignInLink(server.config.ownerEmail, url);
const cookie = (await fetch(link, { redirect: 'manual' })).headers.getSetCookie()[0].split(';')[0];
const created = await fetch(`${url}/api/v1/api-keys`, {
  method: 'POST',
  headers: { cookie, origin: url, 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'bench', services: ['assets'] }),
});
const { secret: key } = (await created.json()) as { secret: string };
for (let i = 0; i < Number(assetsArg ?? 20); i++) {
  const form = new FormData();
  form.append('file', new Blob([`note ${i}`], { type: 'text/plain' }), `note-${i}.txt`);
  await fetch(`${url}/api/v1/uploads`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${key}` },
  });
}
console.log(JSON.stringify({ url, key }));
// `gc` on stdin: collect garbage, then print this process's memory (bench/mcp.ts reads it after each step)
process.stdin.setEncoding('utf8').on('data', () => {
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  console.log(JSON.stringify({ rss, heapUsed }));
});
process.once('SIGTERM', async () => {
  await server.close();
  process.exit(0);
});
