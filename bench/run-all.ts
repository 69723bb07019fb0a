// `npm run bench`: every benchmark in turn, each printing its table beside its peers.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const tsx = createRequire(import.meta.url).resolve('tsx/cli');
const benches = [
  'foundation.ts',
  'assets-serve.ts',
  'assets-ingest.ts',
  'transcription-engine.ts',
  'chunked-upload.ts',
  'publishing-render.ts',
  'publishing-pages.ts',
  'dashboard.ts',
  'store-async.ts',
  'crash-uploads.ts',
  'mcp.ts',
  'hosted-store.ts',
  'hosted-nodes.ts',
  'sync.ts',
  'scale.ts',
];
/** The file backend holds every row in memory: 1M assets need a larger heap than Node's default. */
const heap: Record<string, string[]> = { 'hosted-store.ts': ['--max-old-space-size=8192'] };

for (const bench of benches) {
  console.log(`\n=== bench/${bench}`);
  const { status } = spawnSync(
    process.execPath,
    ['--expose-gc', ...(heap[bench] ?? []), tsx, `bench/${bench}`],
    {
      stdio: 'inherit',
    },
  );
  if (status !== 0) console.log(`bench/${bench} exited with ${status}`);
}
