/**
 * Builds build/whisper/folio-whisper-worker from resources/whisper-worker/worker.cpp and the
 * whisper.cpp 1.6.2 sources bundled in smart-whisper (we never run smart-whisper's own install).
 * Usage: tsx scripts/build-whisper.ts [--force]
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildWhisperTargets } from './lib/whisper-build.js';

const root = fileURLToPath(new URL('..', import.meta.url));

mkdirSync(`${root}build/whisper`, { recursive: true });
const result = await buildWhisperTargets({
  root,
  targets: ['worker'],
  force: process.argv.includes('--force'),
  native: process.env.FOLIO_WHISPER_NATIVE === '1',
});
if (result.status === 'no-compiler') {
  console.log(
    'whisper: no C/C++ compiler (g++/gcc) found; skipping. Transcription will report "engine not built".',
  );
} else {
  console.log(`whisper: ${result.status} ${result.outputs.join(', ')} in ${(result.ms / 1000).toFixed(1)} s`);
}
