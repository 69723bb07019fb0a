// Folio for bench/scale.ts, in its own process: `node --import tsx bench/lib/scale-child.ts '<config json>' [setup]`.
// Starts the server on the config (a data folder, or PostgreSQL + S3) and prints one JSON line: its url, the
// seconds from process start to listening, and with `setup` an API key of the owner's workspace (made through
// the API as a person would). Over IPC it answers `memory` with RSS and heap, `stall` with the longest event-loop
// delay since the last `stall` (perf_hooks histogram, 10 ms resolution), and `settled` with the seconds from
// process start to the end of what listening began in the background (the indexes, the start-up sweeps).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createServer } from '../../server/app.js';

const [configJson, setup] = process.argv.slice(2);
const limits = { rateLimitPerMinute: 1e9, rateLimitBurst: 1e9, uploadBytes: 1 << 20 };
const server = await createServer({ port: 0, quiet: true, limits, ...JSON.parse(configJson!) }, () => {});
const { url } = await server.listen();
const listenS = process.uptime();
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();

let key: string | undefined;
if (setup === 'setup') {
  const link = await server.deps.identity.mintSignInLink(server.config.ownerEmail, url, {
    announce: false,
  });
  const cookies = (await fetch(link, { redirect: 'manual' })).headers.getSetCookie();
  const cookie = cookies.find((c) => c.startsWith('folio_session='))!.split(';')[0]!;
  const res = await fetch(`${url}/api/v1/api-keys`, {
    method: 'POST',
    headers: { cookie, origin: url, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'scale bench', services: ['assets'] }),
  });
  if (res.status !== 201) throw new Error(`making a key: ${res.status} ${await res.text()}`);
  key = ((await res.json()) as { secret: string }).secret;
}

process.on('message', (message) => {
  if (message === 'memory') {
    const { rss, heapUsed } = process.memoryUsage();
    process.send?.({ rss, heapUsed });
  } else if (message === 'settled') {
    void server.settled().then(() => process.send?.({ settledS: process.uptime() }));
  } else if (message === 'stall') {
    process.send?.({ stallMs: delay.max / 1e6 });
    delay.reset();
  }
});
process.on('SIGTERM', async () => {
  await server.close();
  process.exit(0);
});
console.log(JSON.stringify({ url, listenS, key }));
