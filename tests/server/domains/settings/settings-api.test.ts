import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsFile } from '../../../../server/domains/settings/settings-store.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';

let srv: TestServer;
let dir: string;
beforeAll(async () => {
  srv = await startTestServer();
  dir = await mkdtemp(join(tmpdir(), 'folio-settings-'));
});
afterAll(async () => {
  await srv.close();
  await rm(dir, { recursive: true, force: true });
});

const patch = (body: unknown, cred: Parameters<TestServer['as']>[0] = srv.owner) =>
  srv.as(cred)('/api/v1/settings', { method: 'PATCH', body: JSON.stringify(body) });

describe('instance settings', () => {
  it('a headless server shows what runs and refuses changes with 409: its flags are its settings', async () => {
    const res = await srv.as(srv.owner)('/api/v1/settings');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      editable: false,
      saved: null,
      running: { dataDir: srv.dataDir, whisperThreads: 2, whisperDevice: 'auto' },
    });
    expect(body.running.url).toBe(srv.url);
    const refused = await patch({ whisperThreads: 4 });
    expect(refused.status).toBe(409);
    expect((await refused.json()).error).toMatch(/--whisper-threads/);
  });

  it('with the desktop shell’s store, changes are saved for the next start and flagged as needing a restart', async () => {
    const path = join(dir, 'settings.json');
    srv.deps.host.instanceSettings = settingsFile(path);
    const res = await patch({ whisperThreads: 4, dataDir: join(dir, 'data') });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      editable: true,
      restartRequired: true,
      saved: { whisperThreads: 4, port: 4780 },
    });
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({
      port: 4780,
      whisperThreads: 4,
      dataDir: join(dir, 'data'),
    });
  });

  it('the Whisper device is saved and applies at once: the worker restarts on it, no restart of Folio', async () => {
    const res = await patch({ whisperDevice: 'cpu' });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.running.whisperDevice).toBe('cpu');
    expect(body.saved.whisperDevice).toBe('cpu');
    expect(srv.deps.engine.devicePreference()).toBe('cpu');
    expect(JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8')).whisperDevice).toBe('cpu');
  });

  it('rejects bad values with 400 naming the field, and keeps the saved file unchanged', async () => {
    for (const body of [
      { whisperDevice: 'tpu' },
      { port: 80 },
      { whisperThreads: 0 },
      { dataDir: 'relative/path' },
      {},
      { colour: 'red' },
    ]) {
      const res = await patch(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).error).toBeTruthy();
    }
    const unwritable = await patch({ dataDir: '/proc/folio-cannot-write' });
    expect(unwritable.status).toBe(400);
    expect(JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8')).whisperThreads).toBe(4);
  });

  it('is for the instance owner only: another user gets 403, a key 403, nobody 401', async () => {
    const other = await srv.signInApproved('someone@example.com');
    expect((await srv.as(other)('/api/v1/settings')).status).toBe(403);
    const key = await srv.createKey({ services: ['assets'] });
    expect((await srv.as({ bearer: key })('/api/v1/settings')).status).toBe(403);
    expect((await srv.as(null)('/api/v1/settings')).status).toBe(401);
  });

  it('a cookie write from another origin is refused', async () => {
    const res = await srv.as(srv.owner)('/api/v1/settings', {
      method: 'PATCH',
      body: JSON.stringify({ whisperThreads: 3 }),
      headers: { origin: 'http://localhost:9999' },
    });
    expect(res.status).toBe(403);
  });
});
