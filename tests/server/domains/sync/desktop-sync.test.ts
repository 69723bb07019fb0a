// The desktop's sync screen over HTTP (what the dashboard calls), the key vault and the background schedule.
import { readFile, stat } from 'node:fs/promises';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../../../server/config.js';
import { type RunSummary, syncSettings } from '../../../../server/domains/sync/collections.js';
import { createKeyVault, type SecretBox } from '../../../../server/domains/sync/desktop/key-vault.js';
import { BACKOFF_MAX_MS, createScheduler } from '../../../../server/domains/sync/desktop/scheduler.js';
import { SERVICE_NAMES } from '../../../../server/http/viewer.js';
import { silentLogger } from '../../../../server/log.js';
import type { Store } from '../../../../server/store/types.js';
import { lineLog } from '../../../helpers/line-log.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { standInProxy } from '../../../helpers/stand-in-proxy.js';
import { type Json, ON_FILES, optIntoSync, upload } from '../../../helpers/sync-pair.js';

const open: TestServer[] = [];
const fakes: Server[] = [];
afterEach(async () => {
  for (const srv of open.splice(0)) await srv.close();
  for (const fake of fakes.splice(0)) fake.close();
});

/**
 * A stand-in for the hosted side's address: passes requests on to `target` unless `answer` has something else for
 * that path (a proxy's error page, another program on the port, a version that answers otherwise).
 */
async function standIn(target: string, answer: (path: string) => { type: string; body: string } | undefined) {
  const { url, server } = await standInProxy(target, (req, res) => {
    const own = answer(req.url ?? '/');
    if (!own) return false;
    res.writeHead(200, { 'content-type': own.type });
    res.end(own.body);
    return true;
  });
  fakes.push(server);
  return url;
}
async function server(config: Partial<ConfigInput> = {}) {
  const srv = await startTestServer(config);
  open.push(srv);
  return srv;
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A desktop holding 30 assets, set up (automatic sync off) to sync with a fresh hosted server. */
async function pairWithThirtyAssets() {
  const [desktop, hosted] = [await server(ON_FILES), await server()];
  const hostedKey = await hosted.createKey({ services: [...SERVICE_NAMES] });
  const desktopKey = await desktop.createKey({ services: [...SERVICE_NAMES] });
  const api = desktop.as(desktop.owner);
  for (let i = 0; i < 30; i++) await upload(desktop, desktopKey, `file ${i}`, `f${i}.txt`);
  await api('/api/v1/sync/settings', {
    method: 'PUT',
    body: JSON.stringify({ remoteUrl: hosted.url, key: hostedKey, enabled: false }),
  });
  return { desktop, hosted, hostedKey, desktopKey, api };
}

describe('desktop sync routes', () => {
  it('takes a hosted URL and key after checking them, shows only the key prefix, keeps the key in a 0600 file', async () => {
    const [desktop, hosted] = [await server(ON_FILES), await server()];
    const key = await hosted.createKey({ services: [...SERVICE_NAMES] });
    const api = desktop.as(desktop.owner);
    const put = (body: Json) => api('/api/v1/sync/settings', { method: 'PUT', body: JSON.stringify(body) });

    expect(await (await api('/api/v1/sync/settings')).json()).toMatchObject({
      enabled: false,
      remoteUrl: null,
      keyStorage: 'file',
    });
    const refused = await put({ remoteUrl: hosted.url, key: `fk_${'A'.repeat(40)}` });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as Json).error).toMatch(/refused this key \(401\)/);
    const unreachable = await put({ remoteUrl: 'http://127.0.0.1:9', key });
    expect(unreachable.status).toBe(502);
    expect((await put({ remoteUrl: 'ftp://example.com', key })).status).toBe(400);

    const saved = await put({ remoteUrl: `${hosted.url}/`, key, intervalMinutes: 15 });
    expect(saved.status).toBe(200);
    const settings = (await saved.json()) as Json;
    expect(settings).toMatchObject({
      enabled: true,
      remoteUrl: hosted.url,
      keyPrefix: key.slice(0, 11),
      intervalMinutes: 15,
    });
    expect(JSON.stringify(settings)).not.toContain(key);
    const file = join(desktop.dataDir, 'sync-keys.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).toContain(key);

    const keyCaller = await desktop.createKey({ services: [...SERVICE_NAMES] });
    expect((await desktop.as({ bearer: keyCaller })('/api/v1/sync/settings')).status).toBe(403);

    const cleared = await api('/api/v1/sync/settings', { method: 'DELETE' });
    expect(await cleared.json()).toMatchObject({ enabled: false, keyPrefix: null });
    await expect(stat(file)).rejects.toThrow();
    expect((await api('/api/v1/sync/run', { method: 'POST' })).status).toBe(400);
  });

  it('runs now in the background: status shows the run, then its counts, the last success, and conflicts to resolve', async () => {
    const { desktop, hosted, hostedKey, desktopKey, api } = await pairWithThirtyAssets();
    const started = await api('/api/v1/sync/run', { method: 'POST' });
    expect(started.status).toBe(202);
    expect(await started.json()).toMatchObject({
      state: 'running',
      running: { startedAt: expect.any(String) },
    });
    const status = async () => (await (await api('/api/v1/sync/status')).json()) as Json;
    const done = await waitFor(status, (s) => s.running === null && s.lastRun !== null);
    expect(done).toMatchObject({
      lastRun: { ok: true, counts: { pushed: 30 }, errors: [], skipped: [] },
      openConflicts: 0,
      failingItems: 0,
    });
    expect(Date.parse(done.lastSuccessAt)).toBeGreaterThan(Date.now() - 60_000);

    const hostedApi = hosted.as({ bearer: hostedKey });
    const [first] = ((await (await hostedApi('/api/v1/assets?limit=1')).json()) as Json).data;
    await hostedApi(`/api/v1/assets/${first.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ tags: ['web'] }),
    });
    await desktop.as({ bearer: desktopKey })(`/api/v1/assets/${first.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ tags: ['desk'] }),
    });
    await api('/api/v1/sync/run', { method: 'POST' });
    const after = await waitFor(status, (s) => s.running === null && s.openConflicts === 1);
    expect(after.lastRun.counts).toMatchObject({ conflicts: 1 });
    const list = (await (await api('/api/v1/sync/conflicts')).json()) as Json;
    const [conflict] = list.data;
    expect(conflict).toMatchObject({
      recordId: first.id,
      copy: { record: { tags: ['desk'] } },
      winner: { record: { tags: ['web'] } },
    });
    expect(await (await api(`/api/v1/sync/conflicts/${conflict.id}`)).json()).toEqual(conflict);
    expect((await api('/api/v1/sync/conflicts/cf_missing')).status).toBe(404);
    const resolved = await api(`/api/v1/sync/conflicts/${conflict.id}/resolve`, {
      method: 'POST',
      body: JSON.stringify({ keep: 'winner' }),
    });
    expect(await resolved.json()).toMatchObject({ status: 'resolved', resolution: 'winner' });
    expect((await status()).openConflicts).toBe(0);
    const bad = await api(`/api/v1/sync/conflicts/${conflict.id}/resolve`, {
      method: 'POST',
      body: JSON.stringify({ keep: 'both' }),
    });
    expect(bad.status).toBe(400);
  });

  it('Sync now while a run is under way runs once more after it, so what changed meanwhile is sent', async () => {
    const { desktop, hosted, hostedKey, desktopKey, api } = await pairWithThirtyAssets();
    const first = (await (await api('/api/v1/sync/run', { method: 'POST' })).json()) as Json;
    const late = await upload(desktop, desktopKey, 'made during the first run', 'late.txt');
    const again = (await (await api('/api/v1/sync/run', { method: 'POST' })).json()) as Json;
    expect(again.running.startedAt).toBe(first.running.startedAt); // the first run is still the one under way
    const status = async () => (await (await api('/api/v1/sync/status')).json()) as Json;
    const done = await waitFor(
      status,
      (s) => s.running === null && s.lastRun?.startedAt > first.running.startedAt,
    );
    expect(done.lastRun).toMatchObject({ ok: true });
    const there = await hosted.as({ bearer: hostedKey })(`/api/v1/assets/${late.id}`);
    expect(there.status).toBe(200);
  });

  it('refuses an address whose answers are not a hosted Folio’s, and a run whose answers stop being one fails naming the route', async () => {
    const [desktop, hosted] = [await server(ON_FILES), await server()];
    const key = await hosted.createKey({ services: [...SERVICE_NAMES] });
    const api = desktop.as(desktop.owner);
    let answers: Record<string, { type: string; body: string }> = {
      '/api/v1/sync/info': { type: 'text/html', body: '<html><body>Welcome to nginx!</body></html>' },
    };
    const address = await standIn(hosted.url, (path) => answers[path.split('?')[0]]);
    const put = () =>
      api('/api/v1/sync/settings', {
        method: 'PUT',
        body: JSON.stringify({ remoteUrl: address, key, enabled: false }),
      });
    const notFolio = await put();
    expect(notFolio.status).toBe(400);
    expect(((await notFolio.json()) as Json).error).toMatch(
      /not as a Folio with sync \(\/api\/v1\/sync\/info: not JSON \(sent as text\/html\)\)/,
    );
    answers = { '/api/v1/sync/info': { type: 'application/json', body: '{"workspace":null}' } };
    expect(((await (await put()).json()) as Json).error).toMatch(/\/api\/v1\/sync\/info: workspace: /);

    answers = {};
    const through = await put();
    expect(through.status, await through.clone().text()).toBe(200);
    const { workspaceId } = await desktop.createKeyDetails({ services: [] });
    answers = { '/api/v1/sync/changes': { type: 'application/json', body: '{"changes":7}' } };
    const failed = await desktop.deps.sync.desktop.run(workspaceId);
    expect(failed).toMatchObject({
      ok: false,
      offline: false,
      error: expect.stringMatching(
        /answer to \/api\/v1\/sync\/changes\?since=0.* is not one this version reads: changes: /,
      ),
    });
    answers = {};
    expect((await desktop.deps.sync.desktop.run(workspaceId)).ok).toBe(true);
  });

  it('says when the hosted Folio cannot be reached, as a failed run that keeps the last success', async () => {
    const [desktop, hosted] = [await server(ON_FILES), await server()];
    const hostedKey = await hosted.createKey({ services: [...SERVICE_NAMES] });
    const api = desktop.as(desktop.owner);
    await api('/api/v1/sync/settings', {
      method: 'PUT',
      body: JSON.stringify({ remoteUrl: hosted.url, key: hostedKey, enabled: false }),
    });
    const { workspaceId } = await desktop.createKeyDetails({ services: [] });
    expect((await desktop.deps.sync.desktop.run(workspaceId)).ok).toBe(true);
    const lastSuccess = ((await (await api('/api/v1/sync/status')).json()) as Json).lastSuccessAt;
    open.splice(open.indexOf(hosted), 1);
    await hosted.close();
    const failed = await desktop.deps.sync.desktop.run(workspaceId);
    expect(failed).toMatchObject({
      ok: false,
      offline: true,
      error: expect.stringMatching(/cannot be reached/),
    });
    expect(await (await api('/api/v1/sync/status')).json()).toMatchObject({
      lastSuccessAt: lastSuccess,
      lastRun: { ok: false, offline: true },
    });
  });
});

describe('background schedule', () => {
  it('logs a settings read that fails after a run, instead of leaving it unheard (it would end the process)', async () => {
    const { log, entries } = lineLog();
    const failing = {
      collection: () => ({ get: () => Promise.reject(new Error('EIO: i/o error, read')) }),
    } as unknown as Store;
    const scheduler = createScheduler({
      store: failing,
      run: async () => ({}) as RunSummary,
      log,
    });
    const ran = Promise.resolve({ ok: true } as RunSummary);
    await expect(scheduler.observe('ws_x', ran)).resolves.toBeUndefined();
    expect(entries).toEqual([{ level: 'warn', message: expect.stringContaining('EIO: i/o error, read') }]);
  });

  it('runs opted-in workspaces when due, backs off while the hosted side is unreachable, and resets after a success', async () => {
    const srv = await server();
    const { workspaceId } = await srv.createKeyDetails({ services: [] });
    await optIntoSync(srv, workspaceId);
    let now = 1_000_000;
    let offline = true;
    const runs: number[] = [];
    const scheduler = createScheduler({
      store: srv.deps.store,
      now: () => now,
      log: silentLogger,
      run: async () => {
        runs.push(now);
        const at = new Date(now).toISOString();
        return offline
          ? {
              startedAt: at,
              finishedAt: at,
              ok: false,
              error: 'unreachable',
              offline: true,
              counts: {},
              errors: [],
              skipped: [],
            }
          : { startedAt: at, finishedAt: at, ok: true, counts: {}, errors: [], skipped: [] };
      },
    });
    const waits: number[] = [];
    for (let i = 0; i < 9; i++) {
      await scheduler.tick();
      const next = scheduler.stateOf(workspaceId).nextRunAt;
      waits.push(next - now);
      now = next;
    }
    expect(runs).toHaveLength(9);
    // each wait is drawn from the upper half of its backoff (tests/server/domains/sync/retry-waits.test.ts)
    const backoffs = [30_000, 60_000, 120_000, 240_000, 480_000, 960_000, ...Array(3).fill(BACKOFF_MAX_MS)];
    waits.forEach((wait, i) => {
      expect(wait).toBeGreaterThanOrEqual(backoffs[i] / 2);
      expect(wait).toBeLessThanOrEqual(backoffs[i]);
    });
    expect(scheduler.stateOf(workspaceId)).toMatchObject({ offline: true, failures: 9 });
    now -= 1;
    await scheduler.tick(); // not due yet: nothing runs
    expect(runs).toHaveLength(9);
    offline = false;
    now = scheduler.stateOf(workspaceId).nextRunAt;
    await scheduler.tick();
    expect(scheduler.stateOf(workspaceId)).toMatchObject({
      failures: 0,
      offline: false,
      nextRunAt: now + 5 * 60_000,
    });
    await srv.deps.store.collection(syncSettings, workspaceId).update('sync', { enabled: false });
    now += 10 * 60_000;
    await scheduler.tick();
    expect(runs).toHaveLength(10);
  });
});

describe('key vault', () => {
  const box = (available: boolean): SecretBox => ({
    available,
    reason: available ? undefined : 'No keyring (GNOME Keyring or KWallet) is running',
    seal: (plain) => Buffer.from(plain).toString('base64').split('').reverse().join(''),
    open: (sealed) => Buffer.from(sealed.split('').reverse().join(''), 'base64').toString(),
  });

  it('keeps only what the keychain box sealed, and refuses to keep a key when the box cannot protect it', async () => {
    const srv = await server();
    const vault = createKeyVault({ dataDir: srv.dataDir, box: box(true) });
    await vault.set('ws_a', 'fk_secretsecretsecretsecret');
    expect(await vault.get('ws_a')).toBe('fk_secretsecretsecretsecret');
    const file = await readFile(join(srv.dataDir, 'sync-keys.json'), 'utf8');
    expect(file).not.toContain('fk_secret');
    expect(vault.storage).toBe('safeStorage');
    const locked = createKeyVault({ dataDir: srv.dataDir, box: box(false) });
    await expect(locked.set('ws_b', 'fk_other')).rejects.toThrow(/No keyring/);
    await expect(locked.get('ws_a')).rejects.toThrow(/cannot be read/);
  });
});
