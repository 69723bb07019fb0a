// The shell's in-process server, without Electron: saved settings applied, another port when the saved one is
// taken, the packaged dashboard served, the settings screen able to save.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../electron/secrets.js';
import { type ServerHost, startServerHost } from '../../electron/server-host.js';
import { ensureDashboard } from '../e2e/ensure-dashboard.js';

const appPath = fileURLToPath(new URL('../..', import.meta.url));
let userData: string;
let host: ServerHost;
let holder: ReturnType<typeof createServer>;
let taken: number;

beforeAll(async () => {
  await ensureDashboard();
  userData = await mkdtemp(join(tmpdir(), 'folio-userdata-'));
  holder = createServer().listen(0, '127.0.0.1');
  await new Promise((r) => holder.once('listening', r));
  taken = (holder.address() as { port: number }).port;
  await writeFile(join(userData, 'settings.json'), JSON.stringify({ port: taken, whisperThreads: 3 }));
  // The same contract as Electron's safeStorage (which needs a running Electron), on a keyring backend.
  const xor = (bytes: Buffer) => Buffer.from([...bytes].map((b) => b ^ 0x5a));
  const secretBox = createSecretBox(
    {
      isEncryptionAvailable: () => true,
      encryptString: (plain) => xor(Buffer.from(plain)),
      decryptString: (sealed) => xor(sealed).toString(),
      getSelectedStorageBackend: () => 'gnome_libsecret',
    },
    'linux',
  );
  host = await startServerHost({ userData, appPath, secretBox });
});
afterAll(async () => {
  await host?.close();
  holder?.close();
  await rm(userData, { recursive: true, force: true });
});

describe('server host', () => {
  it('falls back to a free port when the saved one is taken, and says which it wanted', () => {
    expect(host.preferredPort).toBe(taken);
    expect(Number(new URL(host.url).port)).not.toBe(taken);
    expect(host.dataDir).toBe(userData);
  });

  it('the owner link signs the window in; the dashboard is served and settings are editable', async () => {
    const signIn = await fetch(host.signInUrl, { redirect: 'manual' });
    expect(signIn.status).toBe(302);
    const cookie = signIn.headers.getSetCookie()[0].split(';')[0];
    const page = await fetch(`${host.url}/`, { headers: { cookie } });
    expect(await page.text()).toContain('<div id="root">');
    const settings = await (await fetch(`${host.url}/api/v1/settings`, { headers: { cookie } })).json();
    expect(settings).toMatchObject({
      editable: true,
      saved: { port: taken, whisperThreads: 3 },
      running: { whisperThreads: 3 },
    });
    const saved = await fetch(`${host.url}/api/v1/settings`, {
      method: 'PATCH',
      headers: { cookie, origin: host.url, 'content-type': 'application/json' },
      body: JSON.stringify({ port: 4790 }),
    });
    expect((await saved.json()).saved.port).toBe(4790);
  });

  it('keeps its log in a file in the data folder, which the settings name for Settings to reveal', async () => {
    const signIn = await fetch(await host.mintSignInLink(), { redirect: 'manual' });
    const cookie = signIn.headers.getSetCookie()[0].split(';')[0];
    const settings = await (await fetch(`${host.url}/api/v1/settings`, { headers: { cookie } })).json();
    expect(settings.running.logFile).toBe(host.logFile());
    expect(dirname(host.logFile())).toBe(join(userData, 'logs'));
    expect(basename(host.logFile())).toMatch(/^folio\.\d+\.log$/);
    await expect
      .poll(() => readFile(host.logFile(), 'utf8').catch(() => ''))
      .toMatch(new RegExp(`Z INFO  Folio listening on ${host.url}$`, 'm'));
  });

  it('keeps hosted sync keys with the shell’s safeStorage box', async () => {
    const signIn = await fetch(await host.mintSignInLink(), { redirect: 'manual' });
    const cookie = signIn.headers.getSetCookie()[0].split(';')[0];
    const sync = await (await fetch(`${host.url}/api/v1/sync/settings`, { headers: { cookie } })).json();
    expect(sync).toMatchObject({ keyStorage: 'safeStorage', enabled: false, keyPrefix: null });
  });
});
