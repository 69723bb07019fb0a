/**
 * Release step (.github/workflows/release.yml): moves the CUDA module and the CUDA runtime libraries it needs out of
 * build/whisper/ into dist/packages/cuda-addon-<platform>-<arch>/, which the workflow archives as an add-on. The
 * installers then hold the CPU modules and the Vulkan module (which needs only a driver, on NVIDIA, AMD and Intel
 * alike), staying small; a user with an NVIDIA GPU extracts the add-on into Folio's `resources/whisper` folder for
 * the CUDA module (docs/releasing.md). Usage: tsx scripts/cuda-addon.ts
 */
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { workerDir } from './lib/whisper-build.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const from = workerDir(root);
const CUDA_FILES = /^(lib)?ggml-cuda\.(so|dll)$|^(lib)?(cudart|cublas|cublasLt)(64_\d+\.dll|\.so\.\d+)$/;
const moving = readdirSync(from).filter((name) => CUDA_FILES.test(name));
if (!moving.some((name) => /ggml-cuda/.test(name))) {
  console.error('cuda-addon: build/whisper/ holds no CUDA module (build with FOLIO_WHISPER_GPU=vulkan,cuda)');
  process.exit(1);
}
const to = join(root, 'dist/packages', `cuda-addon-${process.platform}-${process.arch}`);
rmSync(to, { recursive: true, force: true });
mkdirSync(to, { recursive: true });
for (const name of moving) renameSync(join(from, name), join(to, name));
writeFileSync(
  join(to, 'README.txt'),
  [
    'Folio CUDA add-on: the whisper.cpp CUDA module and the NVIDIA CUDA runtime libraries it needs.',
    "Copy these files into Folio's resources/whisper folder (beside folio-whisper-worker), then choose",
    'Settings > Transcription device > GPU. Needs an NVIDIA driver for CUDA 12 or newer.',
    '',
  ].join('\n'),
);
console.log(`cuda-addon: ${moving.join(', ')} -> ${to}`);
