// The Windows worker (issue #34): worker.cpp and device.h compile against Windows' headers, with no POSIX-only call
// (unistd.h, access, getpid, dlopen outside its #ifdef). MinGW-w64 stands in for MSVC here (the release workflow
// builds with MSVC itself, docs/releasing.md): it catches a POSIX call or a windows.h clash (min/max), not MSVC's
// own dialect.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const compiler = 'x86_64-w64-mingw32-g++-posix';
const present = spawnSync(compiler, ['--version']).status === 0;
if (!present)
  console.warn(`skipping the Windows compile check: ${compiler} not installed (.ci/run installs it)`);
const root = fileURLToPath(new URL('../..', import.meta.url));
const whisper = `${root}node_modules/nodejs-whisper/cpp/whisper.cpp`;

describe.skipIf(!present)('the worker against Windows headers', () => {
  it('compiles worker.cpp (with whisper.cpp in it) for Windows', () => {
    // MinGW-w64 ships POSIX headers MSVC lacks: these stand in front of them and fail the compile if included
    const posixOnly = mkdtempSync(join(tmpdir(), 'folio-posix-only-'));
    for (const header of ['unistd.h', 'dlfcn.h'])
      writeFileSync(join(posixOnly, header), `#error "${header} is POSIX-only: MSVC has none"\n`);
    const args = ['-std=c++17', '-fsyntax-only', '-DWHISPER_VERSION="1.9.1"', `-I${posixOnly}`];
    for (const dir of ['src', 'include', 'ggml/include', 'examples']) args.push(`-I${whisper}/${dir}`);
    const compile = () =>
      execFileSync(compiler, [...args, `${root}resources/whisper-worker/worker.cpp`], {
        encoding: 'utf8',
        stdio: 'pipe',
      });
    try {
      expect(compile).not.toThrow();
    } finally {
      rmSync(posixOnly, { recursive: true, force: true });
    }
  }, 120_000);
});
