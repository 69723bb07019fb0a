// build/electron-builder.json cannot be run here (no Electron binary can be downloaded): it is checked against
// electron-builder's own JSON schema (app-builder-lib/scheme.json) and against the files it names.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);
const config = JSON.parse(readFileSync(`${root}build/electron-builder.json`, 'utf8'));
const schema = require('app-builder-lib/scheme.json');

describe('electron-builder configuration', () => {
  it('is valid against electron-builder’s schema', () => {
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    expect(validate(config), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  it('a mistake is caught by the same check (the schema is really applied)', () => {
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    expect(validate({ ...config, mac: { ...config.mac, target: 'dmgg' }, nsis: { oneClik: false } })).toBe(
      false,
    );
  });

  it('targets AppImage and deb, a universal dmg, and an nsis installer', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual([{ target: 'dmg', arch: ['universal'] }]);
    expect(config.win.target).toEqual([{ target: 'nsis', arch: ['x64'] }]);
  });

  it('ships the whisper worker with its libraries and backend modules per platform, outside the asar', () => {
    // what build:whisper installs on each platform (scripts/lib/whisper-build.ts): the worker, ggml's
    // libraries by soname, a CPU module per instruction-set level and any GPU module built
    const installed: Record<string, string[]> = {
      linux: [
        'folio-whisper-worker',
        'libggml.so.0',
        'libggml-base.so.0',
        'libggml-cpu-haswell.so',
        'libggml-cpu-x64.so',
        'libggml-cuda.so',
        'libggml-vulkan.so',
      ],
      mac: [
        'folio-whisper-worker',
        'libggml.0.dylib',
        'libggml-base.0.dylib',
        'libggml-cpu.so',
        'libggml-metal.so',
      ],
      win: [
        'folio-whisper-worker.exe',
        'ggml.dll',
        'ggml-base.dll',
        'ggml-cpu-haswell.dll',
        'ggml-cuda.dll',
        'ggml-vulkan.dll',
      ],
    };
    for (const platform of ['linux', 'mac', 'win']) {
      const [resource] = config[platform].extraResources;
      expect(resource.from, platform).toBe('build/whisper');
      expect(resource.to, platform).toBe('whisper'); // server-host looks for the worker in resources/whisper/
      for (const file of installed[platform])
        expect(
          resource.filter.some((glob: string) => globMatches(glob, file)),
          `${platform}: ${file}`,
        ).toBe(true);
      // the CMake build trees beside them stay out
      expect(
        resource.filter.some((glob: string) => globMatches(glob, 'cmake')),
        platform,
      ).toBe(false);
    }
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['node_modules/sharp/**']));
    // no ffmpeg ships with the app: uploads are decoded by a maintained one on the machine (README "Audio decoding")
    expect(JSON.stringify(config)).not.toMatch(/ffmpeg/);
  });

  it('packs the bundled shell and the built dashboard, and every icon and entitlement it names exists', () => {
    expect(config.extraMetadata.main).toBe('dist/electron/main.js');
    expect(config.files).toEqual(expect.arrayContaining(['dist/electron/**', 'dist/renderer/**']));
    for (const file of [
      config.mac.icon,
      config.win.icon,
      config.mac.entitlements,
      'build/icons/tray.png',
      'build/icons/png/512x512.png',
    ])
      expect(existsSync(`${root}${file}`), file).toBe(true);
    expect(readFileSync(`${root}${config.mac.entitlements}`, 'utf8')).toContain(
      'com.apple.security.device.audio-input',
    );
    expect(config.mac.extendInfo.NSMicrophoneUsageDescription).toBeTruthy();
  });

  it('has auto-update configured but off: a publish target, and no updater in the app', () => {
    expect(config.publish[0].provider).toBe('generic');
    const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
    expect({ ...pkg.dependencies, ...pkg.devDependencies }).not.toHaveProperty('electron-updater');
    expect(readFileSync(`${root}electron/main.ts`, 'utf8')).not.toMatch(/autoUpdater/);
  });
});

/** The one glob form the filters use: `*` for any run of characters in a file name. */
function globMatches(glob: string, name: string): boolean {
  return new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(name);
}
