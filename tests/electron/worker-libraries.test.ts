// What the packaged worker needs from the user's machine (issue #34): nothing beyond the C and C++ runtimes and the
// GPU loaders. Every library the worker and its modules link must be one of those or ship beside them: a build that
// links OpenMP (libgomp, not on every Linux) or a CUDA runtime it does not ship fails here. Reads the ELF headers of
// build/whisper/, which is what electron-builder copies into the package (build/electron-builder.json).
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultWorkerPath } from '../../server/engines/whisper/whisper-engine.js';
import { engineBuilt } from '../helpers/transcription.js';

/** What any Linux desktop has: glibc's parts, the C++ runtime, and the loaders GPU drivers install. */
const SYSTEM = [
  /^libc\.so\.6$/,
  /^libm\.so\.6$/,
  /^libpthread\.so\.0$/,
  /^libdl\.so\.2$/,
  /^librt\.so\.1$/,
  /^ld-linux-[\w-]+\.so\.\d$/,
  /^libstdc\+\+\.so\.6$/,
  /^libgcc_s\.so\.1$/,
  /^libvulkan\.so\.1$/, // the Vulkan loader, installed with any GPU driver
  /^libcuda\.so\.1$/, // NVIDIA's driver library (the CUDA runtime itself must ship beside the module)
];

const shipped = (dir: string) =>
  readdirSync(dir).filter((name) => name === 'folio-whisper-worker' || /^libggml.*\.so/.test(name));

function needed(path: string): string[] {
  const dynamic = execFileSync('readelf', ['-d', path], { encoding: 'utf8' });
  return [...dynamic.matchAll(/\(NEEDED\)\s+Shared library: \[([^\]]+)\]/g)].map((m) => m[1]);
}

describe.skipIf(!engineBuilt || process.platform !== 'linux')('the worker’s run-time libraries', () => {
  it('the worker and every module need only system libraries or files shipped beside them', () => {
    const dir = dirname(defaultWorkerPath);
    const files = shipped(dir);
    expect(files).toContain('folio-whisper-worker');
    const outside: string[] = [];
    for (const file of files)
      for (const library of needed(join(dir, file)))
        if (!files.includes(library) && !SYSTEM.some((allowed) => allowed.test(library)))
          outside.push(`${file} needs ${library}`);
    expect(outside).toEqual([]);
  });

  it('the check sees a library from outside (it reads real headers)', () => {
    const dir = dirname(defaultWorkerPath);
    expect(needed(join(dir, 'folio-whisper-worker'))).toContain('libc.so.6');
    expect(SYSTEM.some((allowed) => allowed.test('libgomp.so.1'))).toBe(false);
  });
});
