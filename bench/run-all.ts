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
  'sync.ts',
];

for (const bench of benches) {
  console.log(`\n=== bench/${bench}`);
  const { status } = spawnSync(process.execPath, ['--expose-gc', tsx, `bench/${bench}`], {
    stdio: 'inherit',
  });
  if (status !== 0) console.log(`bench/${bench} exited with ${status}`);
}
