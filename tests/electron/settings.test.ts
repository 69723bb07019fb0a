import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  defaultShellSettings,
  parseShellSettings,
  readShellSettings,
  writeShellSettings,
} from '../../electron/settings.js';
import { settingsFile } from '../../server/domains/settings/settings-store.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-shell-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('shell settings', () => {
  it('defaults: a 1280×820 window, no login item, notifications for recordings of 2 minutes or more', () => {
    expect(defaultShellSettings()).toEqual({
      window: { width: 1280, height: 820, maximized: false },
      startAtLogin: false,
      notifyLongTranscriptions: true,
      longTranscriptionSeconds: 120,
    });
  });

  it('keeps every valid field of a damaged file and defaults the rest', () => {
    const parsed = parseShellSettings({
      startAtLogin: true,
      window: { width: 10 },
      longTranscriptionSeconds: 'soon',
      extra: 1,
    });
    expect(parsed.startAtLogin).toBe(true);
    expect(parsed.window).toEqual({ width: 1280, height: 820, maximized: false });
    expect(parsed.longTranscriptionSeconds).toBe(120);
    expect(parsed).not.toHaveProperty('extra');
  });

  it('round-trips through the file; unreadable JSON reads as the defaults', async () => {
    const path = join(dir, 'shell.json');
    const settings = {
      ...defaultShellSettings(),
      startAtLogin: true,
      window: { x: 10, y: 20, width: 1000, height: 700, maximized: true },
    };
    await writeShellSettings(path, settings);
    expect(await readShellSettings(path)).toEqual(settings);
    await writeFile(path, '{ not json');
    expect(await readShellSettings(path)).toEqual(defaultShellSettings());
  });

  it('instance settings (what the server starts with) default to port 4780 and 2 threads, and reject bad files', async () => {
    const path = join(dir, 'settings.json');
    const store = settingsFile(path);
    expect(await store.read()).toEqual({ port: 4780, whisperThreads: 2 });
    await store.write({ port: 4790, whisperThreads: 4, dataDir: '/srv/folio' });
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({
      port: 4790,
      whisperThreads: 4,
      dataDir: '/srv/folio',
    });
    await writeFile(path, JSON.stringify({ port: 80, whisperThreads: 4 }));
    expect(await store.read()).toEqual({ port: 4780, whisperThreads: 2 });
  });
});
