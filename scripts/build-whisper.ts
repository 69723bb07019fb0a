/**
 * Builds build/whisper/folio-whisper-worker and its ggml backend modules with CMake from
 * resources/whisper-worker/ and the whisper.cpp 1.9.1 source in nodejs-whisper (its install script never runs).
 * Usage: tsx scripts/build-whisper.ts [--force] [--cpu all|host]
 *   FOLIO_WHISPER_GPU=auto|off or cuda, vulkan, metal joined by commas (default auto); FOLIO_WHISPER_CPU=all|host
 *   (default host); FOLIO_WHISPER_OUT=<dir> installs there instead of build/whisper/ (a second build, e.g. Vulkan's
 *   for tests/server/engines/whisper/vulkan.test.ts); FOLIO_WHISPER_ARCH=arm64|x64 on macOS.
 * A checkout's worker only ever runs on the machine that built it, so it builds one CPU module for this CPU (a few
 * minutes on 2 cores); `npm run dist` builds every x86-64 level (`--cpu all`, ~25 min on 2 idle cores: 15 modules),
 * so the packaged worker runs on any CPU.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWhisperTargets, type CpuVariants, parseGpu } from './lib/whisper-build.js';

const root = fileURLToPath(new URL('..', import.meta.url));

function cpuChoice(): CpuVariants {
  const i = process.argv.indexOf('--cpu');
  const value = i === -1 ? process.env.FOLIO_WHISPER_CPU : process.argv[i + 1];
  if (value === undefined || value === 'host' || value === 'all') return value ?? 'host';
  throw new Error(`--cpu / FOLIO_WHISPER_CPU must be all or host, not "${value}"`);
}

const result = await buildWhisperTargets({
  root,
  targets: ['worker'],
  force: process.argv.includes('--force'),
  gpu: parseGpu(process.env.FOLIO_WHISPER_GPU),
  cpu: cpuChoice(),
  say: (line) => console.log(line),
  arch: process.env.FOLIO_WHISPER_ARCH || undefined,
  out: process.env.FOLIO_WHISPER_OUT ? resolve(process.env.FOLIO_WHISPER_OUT) : undefined,
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
