// The packaged app spawns esbuild's binary from outside the asar (electron/esbuild-binary.ts): its path there,
// the package electron-builder must unpack, and the id that finds the binary where esbuild's install puts it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { esbuildBinaryId, unpackedEsbuildBinary } from '../../electron/esbuild-binary.js';

const require = createRequire(import.meta.url);
const config = JSON.parse(
  readFileSync(new URL('../../build/electron-builder.json', import.meta.url), 'utf8'),
);

describe('esbuild in the packaged app', () => {
  it('points at the unpacked copy of the binary the asar holds', () => {
    const app = join(sep, 'opt', 'Folio', 'resources');
    const resolve = (id: string) => join(app, 'app.asar', 'node_modules', id);
    expect(unpackedEsbuildBinary(resolve, 'linux', 'x64')).toBe(
      join(app, 'app.asar.unpacked', 'node_modules', '@esbuild', 'linux-x64', 'bin', 'esbuild'),
    );
    expect(unpackedEsbuildBinary(resolve, 'win32', 'x64')).toBe(
      join(app, 'app.asar.unpacked', 'node_modules', '@esbuild', 'win32-x64', 'esbuild.exe'),
    );
  });

  it('leaves esbuild to find its own binary outside an asar (a checkout)', () => {
    expect(unpackedEsbuildBinary(require.resolve)).toBeUndefined();
  });

  it('names the binary where esbuild’s install put it on this machine', () => {
    const path = require.resolve(esbuildBinaryId(process.platform, process.arch));
    expect(execFileSync(path, ['--version'], { encoding: 'utf8' }).trim()).toBe(
      require('esbuild/package.json').version,
    );
  });

  it('is unpacked from the asar by electron-builder', () => {
    const unpacked = config.asarUnpack
      .filter((glob: string) => glob.endsWith('/**'))
      .map((glob: string) => glob.slice(0, -2));
    for (const [platform, arch] of [
      ['linux', 'x64'],
      ['darwin', 'arm64'],
      ['darwin', 'x64'],
      ['win32', 'x64'],
    ] as const) {
      const path = `node_modules/${esbuildBinaryId(platform, arch)}`;
      expect(
        unpacked.some((dir: string) => path.startsWith(dir)),
        path,
      ).toBe(true);
    }
  });
});
