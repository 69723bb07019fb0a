// Folio from any checkout, for benches that compare two versions in one run:
// `node --import tsx bench/lib/checkout-child.ts <checkoutRoot> <dataDir> <fsync 0|1>`.
// Loads <checkoutRoot>/server/app.ts (createServer(config, log) has the same shape in every version so far; what it
// built is `deps`, named `services` in older versions), with rate limits out of the way, and prints one JSON line:
// { url, signIn } (a fresh owner sign-in link).
// Over the IPC channel it answers { idle: ms } with the event loop's utilisation and delay over that long idle,
// and { profile: 'start' } / { profile: 'stop', path } by starting / writing a V8 CPU profile of this thread.

import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const [root, dataDir, fsyncArg] = process.argv.slice(2);
type Built = { identity: { mintSignInLink(email: string, url: string, o?: object): Promise<string> } };
const { createServer } = (await import(pathToFileURL(join(resolve(root), 'server', 'app.ts')).href)) as {
  createServer: (
    config: Record<string, unknown>,
    log: (line: string) => void,
  ) => Promise<{
    deps?: Built;
    services?: Built;
    listen(): Promise<{ url: string }>;
    close(): Promise<void>;
  }>;
};

const limits = { rateLimitPerMinute: 1e9, rateLimitBurst: 1e9, uploadBytes: 64 << 20 };
const server = await createServer(
  { port: 0, dataDir, fsync: fsyncArg === '1', limits, quiet: true },
  () => {},
);
const { url } = await server.listen();
const { identity } = (server.deps ?? server.services) as Built;
const signIn = await identity.mintSignInLink('owner@localhost', url, { announce: false });
console.log(JSON.stringify({ url, signIn }));

let inspector: Session | undefined; // connected only for a profile

process.on('message', async (message: { idle?: number; profile?: 'start' | 'stop'; path?: string }) => {
  if (message.profile === 'start') {
    inspector = new Session();
    inspector.connect();
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.start');
    process.send?.({ profiling: true });
  }
  if (message.profile === 'stop') {
    const { profile } = await inspector!.post('Profiler.stop');
    inspector!.disconnect();
    await writeFile(message.path!, JSON.stringify(profile));
    process.send?.({ profiling: false });
  }
  if (!message.idle) return;
  const delay = monitorEventLoopDelay({ resolution: 10 });
  const before = performance.eventLoopUtilization();
  delay.enable();
  setTimeout(() => {
    delay.disable();
    const elu = performance.eventLoopUtilization(before);
    process.send?.({
      utilization: elu.utilization,
      delayP99Ms: delay.percentile(99) / 1e6,
      delayMaxMs: delay.max / 1e6,
      heapMb: process.memoryUsage().heapUsed / 2 ** 20,
    });
  }, message.idle);
});
process.on('disconnect', () => server.close().then(() => process.exit(0)));
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
