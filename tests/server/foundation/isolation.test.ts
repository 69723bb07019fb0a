// Another workspace's ids answer 404 (never 403) and change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncConflicts } from '../../../server/domains/sync/collections.js';
import { credentialsOf } from '../../../server/http/define-route.js';
import { namedRoutes } from '../../../server/surfaces/route-table.js';
import { createTenant, uploadAsset } from '../../helpers/factories.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

let srv: TestServer;
let alice: Awaited<ReturnType<typeof createTenant>>;
let bob: Awaited<ReturnType<typeof createTenant>>;
let bobAsset: string;
let bobUpload: string;
let bobPack: string;
const bobConflict = 'cf_bobsownconflict0001';

beforeAll(async () => {
  srv = await startTestServer();
  alice = await createTenant(srv, 'alice@example.com');
  bob = await createTenant(srv, 'bob@example.com');
  bobAsset = await uploadAsset(srv, bob.key.bearer, 'bob.txt');
  await uploadAsset(srv, alice.key.bearer, 'alice.txt');
  const begun = await srv.as({ bearer: bob.key.bearer })('/api/v1/uploads/chunked', {
    method: 'POST',
    body: JSON.stringify({ filename: 'long.wav', contentType: 'audio/wav', size: 1000 }),
  });
  bobUpload = ((await begun.json()) as { uploadId: string }).uploadId;
  const pack = await srv.as({ bearer: bob.key.bearer })('/api/v1/sync/packs', {
    method: 'POST',
    body: JSON.stringify({ blobs: [{ sha256: 'a'.repeat(64), size: 10 }] }),
  });
  bobPack = ((await pack.json()) as { uploadId: string }).uploadId;
  const version = { deleted: false, sha256: 'b'.repeat(64), record: { displayName: 'mine' } };
  await srv.deps.store.collection(syncConflicts, bob.workspaceId).insert({
    id: bobConflict,
    kind: 'asset',
    recordId: bobAsset,
    status: 'open',
    detectedAt: new Date().toISOString(),
    copy: version,
    winner: { ...version, seq: 1 },
  });
});
afterAll(() => srv.close());

/** Bob's id for each kind of :id route, and a valid body for its PATCH (or POST). */
const targets: Record<string, { id: () => string[]; patch: object; post?: object }> = {
  '/api/v1/api-keys/:id': { id: () => [bob.key.id], patch: { name: 'stolen', services: [] } },
  '/api/v1/workspaces/:id': { id: () => [bob.workspaceId, bob.extraWorkspaceId], patch: { name: 'stolen' } },
  '/api/v1/assets/:id': { id: () => [bobAsset], patch: { displayName: 'stolen', tags: ['x'] } },
  '/api/v1/uploads/chunked/:id': { id: () => [bobUpload], patch: {} },
  '/api/v1/uploads/chunked/:id/complete': { id: () => [bobUpload], patch: {} },
  '/api/v1/uploads/chunked/:id/parts/0': { id: () => [bobUpload], patch: {} },
  '/api/v1/sync/packs/:id': { id: () => [bobPack], patch: {} },
  '/api/v1/sync/packs/:id/complete': { id: () => [bobPack], patch: {} },
  '/api/v1/sync/packs/:id/parts/0': { id: () => [bobPack], patch: {} },
  '/api/v1/sync/conflicts/:id': { id: () => [bobConflict], patch: {} },
  '/api/v1/sync/conflicts/:id/resolve': { id: () => [bobConflict], patch: {}, post: { keep: 'copy' } },
  '/api/v1/session-uploads/chunked/:id': { id: () => [bobUpload], patch: {} },
  '/api/v1/session-uploads/chunked/:id/complete': { id: () => [bobUpload], patch: {} },
  '/api/v1/session-uploads/chunked/:id/parts/0': { id: () => [bobUpload], patch: {} },
};

/** Transcripts need a finished transcription to exist; tests/server/domains/transcripts checks their isolation. */
const COVERED_ELSEWHERE = /^\/api\/v1\/transcripts\/:id/;

/** Routes with a workspace-scoped id, the id written `:id` and any other parameter filled in. */
const idRoutes = namedRoutes()
  .filter((r) => /\/:(id|uploadId)\b/.test(r.route.path) && !credentialsOf(r.route).includes('public'))
  .map((r) => ({
    ...r,
    route: { ...r.route, path: r.route.path.replace(':uploadId', ':id').replace(':index', '0') },
  }))
  .filter((r) => !COVERED_ELSEWHERE.test(r.route.path));

/** Everything Bob can see, to prove a refused request changed nothing. */
async function bobState() {
  const session = srv.as(bob.session);
  const key = srv.as({ bearer: bob.key.bearer });
  return {
    keys: await (await session('/api/v1/api-keys')).json(),
    workspaces: await (await session('/api/v1/workspaces')).json(),
    asset: await (await key(`/api/v1/assets/${bobAsset}`)).json(),
    upload: await (await key(`/api/v1/uploads/chunked/${bobUpload}`)).json(),
    assets: await (await key('/api/v1/assets')).json(),
    pack: await (await key(`/api/v1/sync/packs/${bobPack}`)).json(),
    conflicts: await (await session('/api/v1/sync/conflicts?status=all')).json(),
  };
}

describe('workspace isolation', () => {
  it('knows a target for every route with a workspace-scoped :id', () => {
    expect(idRoutes.length).toBeGreaterThanOrEqual(7);
    for (const { route } of idRoutes) expect(targets[route.path], route.path).toBeDefined();
  });

  it("answers 404 (never 403) to another workspace's id on every :id route, with a session and with a key, and changes nothing", async () => {
    const before = await bobState();
    let checked = 0;
    for (const { name, route } of idRoutes) {
      const target = targets[route.path];
      const creds = credentialsOf(route);
      const callers = [
        ...(creds.some((c) => c !== 'key' && c !== 'grant')
          ? [{ label: 'session', cred: alice.session }]
          : []),
        ...(creds.includes('key') ? [{ label: 'key', cred: { bearer: alice.key.bearer } }] : []),
      ];
      for (const id of target.id())
        for (const { label, cred } of callers) {
          const res = await srv.as(cred)(route.path.replace(':id', id), {
            method: route.method,
            ...(route.method === 'PATCH' && { body: JSON.stringify(target.patch) }),
            ...(route.method === 'POST' && target.post && { body: JSON.stringify(target.post) }),
            ...(route.method === 'PUT' && {
              body: 'x'.repeat(10),
              headers: { 'content-type': 'application/octet-stream' },
            }),
          });
          const body = await res.json();
          expect(res.status, `${name} as ${label} on ${id}: ${JSON.stringify(body)}`).toBe(404);
          expect(body).toEqual({ error: expect.any(String) });
          checked++;
        }
    }
    expect(checked).toBeGreaterThanOrEqual(10);
    expect(await bobState()).toEqual(before);
  });

  it("answers 404 when X-Folio-Workspace names another user's workspace, on reads and writes", async () => {
    const before = await bobState();
    for (const ws of [bob.workspaceId, bob.extraWorkspaceId]) {
      const headers = { 'x-folio-workspace': ws };
      const calls = [
        srv.as(alice.session)('/api/v1/api-keys', { headers }),
        srv.as(alice.session)('/api/v1/assets', { headers }),
        srv.as(alice.session)('/api/v1/api-keys', {
          method: 'POST',
          headers,
          body: JSON.stringify({ name: 'k', services: ['assets'] }),
        }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({ error: expect.any(String) });
      }
    }
    expect(await bobState()).toEqual(before);
  });

  it('acts on a second workspace of your own through X-Folio-Workspace, and a key sees only its own workspace', async () => {
    const headers = { 'x-folio-workspace': alice.extraWorkspaceId };
    const created = await srv.as(alice.session)('/api/v1/api-keys', {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'extra', services: ['assets'] }),
    });
    expect(created.status).toBe(201);
    const key = (await created.json()) as { id: string; workspaceId: string; secret: string };
    expect(key.workspaceId).toBe(alice.extraWorkspaceId);
    const personalKeys = (await (await srv.as(alice.session)('/api/v1/api-keys')).json()) as {
      data: { id: string }[];
    };
    expect(personalKeys.data.map((k) => k.id)).not.toContain(key.id);
    const assets = (await (await srv.as({ bearer: key.secret })('/api/v1/assets')).json()) as {
      data: unknown[];
    };
    expect(assets.data).toEqual([]);
  });

  it('lists only your own workspaces and keys', async () => {
    const ws = (await (await srv.as(alice.session)('/api/v1/workspaces')).json()) as {
      data: { id: string }[];
    };
    expect(ws.data.map((w) => w.id)).not.toContain(bob.workspaceId);
    expect(ws.data.map((w) => w.id)).toEqual(
      expect.arrayContaining([alice.workspaceId, alice.extraWorkspaceId]),
    );
    const keys = (await (await srv.as(alice.session)('/api/v1/api-keys')).json()) as {
      data: { id: string }[];
    };
    expect(keys.data.map((k) => k.id)).not.toContain(bob.key.id);
  });
});
