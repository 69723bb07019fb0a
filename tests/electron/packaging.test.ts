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

  it('ships the whisper worker per platform as an extra resource, outside the asar', () => {
    for (const platform of ['linux', 'mac', 'win']) {
      const [resource] = config[platform].extraResources;
      expect(resource.from, platform).toMatch(/^build\/whisper\/folio-whisper-worker/);
      expect(resource.to, platform).toMatch(/^whisper\//);
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
