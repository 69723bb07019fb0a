/**
 * Builds build/whisper/folio-whisper-worker and its ggml backend modules with CMake from
 * resources/whisper-worker/ and the whisper.cpp 1.9.1 source in nodejs-whisper (its install script never runs).
 * Usage: tsx scripts/build-whisper.ts [--force]
 *   FOLIO_WHISPER_GPU=cuda|vulkan|metal|off|auto (default auto); FOLIO_WHISPER_CPU=all|host (default all)
 */
import { fileURLToPath } from 'node:url';
import { buildWhisperTargets, type CpuVariants, parseGpu } from './lib/whisper-build.js';

const root = fileURLToPath(new URL('..', import.meta.url));

const result = await buildWhisperTargets({
  root,
  targets: ['worker'],
  force: process.argv.includes('--force'),
  gpu: parseGpu(process.env.FOLIO_WHISPER_GPU),
  cpu: process.env.FOLIO_WHISPER_CPU === 'host' ? 'host' : ('all' satisfies CpuVariants),
});
if (result.status === 'no-toolchain') {
  console.log(
    `whisper: ${result.missing} not found (the worker needs CMake and a C++ compiler); skipping. Transcription will report "engine not built".`,
  );
} else {
  if (result.gpuSkipped)
    console.log(`whisper: GPU backend left out (${result.gpuSkipped}); building for the CPU`);
  const modules = result.outputs.filter((o) => /ggml-(cpu|cuda|vulkan|metal)/.test(o)).length;
  console.log(
    `whisper: ${result.status} worker + ${modules} backend modules (GPU: ${result.gpu}) in ${(result.ms / 1000).toFixed(1)} s`,
  );
}
