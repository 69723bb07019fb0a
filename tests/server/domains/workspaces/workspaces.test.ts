// Workspaces through the API: create, list with usage, rename, delete with everything in it; the personal
// workspace cannot be deleted; another user's workspace is a 404 and stays as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createTenant, createWorkspace, uploadAsset } from '../../../helpers/factories.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { blobKeys } from '../../../helpers/stored.js';

type Workspace = {
  id: string;
  name: string;
  ownerId: string;
  personal: boolean;
  usage: Record<string, { count: number; bytes: number }>;
};

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(() => srv.close());

const owner = () => srv.as(srv.owner);
const listed = async (session = srv.owner) =>
  ((await (await srv.as(session)('/api/v1/workspaces')).json()) as { data: Workspace[] }).data;

describe('workspaces', () => {
  it('creates a workspace beside the personal one, and lists both with their usage', async () => {
    const created = await createWorkspace(srv, srv.owner, 'Research');
    expect(created).toMatchObject({ name: 'Research', personal: false });
    const all = await listed();
    expect(all.filter((w) => w.personal)).toHaveLength(1);
    expect(all.find((w) => w.id === created.id)).toMatchObject({
      name: 'Research',
      usage: { assets: { count: 0, bytes: 0 } },
    });
    const key = await createKey(srv, { services: ['assets'], workspace: created.id });
    await uploadAsset(srv, key.bearer, 'usage.txt');
    const usage = (await listed()).find((w) => w.id === created.id)!.usage.assets;
    expect(usage.count).toBe(1);
    expect(usage.bytes).toBe('hello from usage.txt'.length);
  });

  it('renames a workspace, its personal one included', async () => {
    const created = await createWorkspace(srv, srv.owner, 'Old name');
    const personal = (await listed()).find((w) => w.personal)!;
    for (const id of [created.id, personal.id]) {
      const res = await owner()(`/api/v1/workspaces/${id}`, {
        method: 'PATCH',
        body: JSON.stringify({ name: `  Renamed ${id.slice(-4)} ` }),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ id, name: `Renamed ${id.slice(-4)}` });
    }
    expect((await listed()).find((w) => w.id === created.id)?.name).toBe(`Renamed ${created.id.slice(-4)}`);
  });

  it('refuses to delete the personal workspace with 409 and keeps it', async () => {
    const personal = (await listed()).find((w) => w.personal)!;
    const res = await owner()(`/api/v1/workspaces/${personal.id}`, { method: 'DELETE' });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ error: expect.stringMatching(/personal/) });
    expect((await listed()).map((w) => w.id)).toContain(personal.id);
  });

  it('answers 404 to another user renaming or deleting a workspace, personal or not, which stays as it was', async () => {
    const victim = await createTenant(srv, 'victim-ws@example.com');
    const before = await listed(victim.session);
    for (const id of [victim.workspaceId, victim.extraWorkspaceId]) {
      const rename = await owner()(`/api/v1/workspaces/${id}`, {
        method: 'PATCH',
        body: JSON.stringify({ name: 'taken over' }),
      });
      expect(rename.status).toBe(404);
      expect((await owner()(`/api/v1/workspaces/${id}`, { method: 'DELETE' })).status).toBe(404);
      // and naming it as the workspace to act on is a 404 too
      const acting = await owner()('/api/v1/api-keys', { headers: { 'x-folio-workspace': id } });
      expect(acting.status).toBe(404);
    }
    expect(await listed(victim.session)).toEqual(before);
    expect((await srv.as({ bearer: victim.key.bearer })('/api/v1/assets')).status).toBe(200);
  });

  it('deletes a workspace with its keys, assets and files: all gone at once, and a second delete is 404', async () => {
    const doomed = await createWorkspace(srv, srv.owner, 'Doomed');
    const key = await createKey(srv, { services: ['assets'], workspace: doomed.id });
    const assetId = await uploadAsset(srv, key.bearer, 'doomed.txt');
    const asset = (await (await srv.as({ bearer: key.bearer })(`/api/v1/assets/${assetId}`)).json()) as {
      key: string;
    };
    expect((await fetch(`${srv.url}/f/${asset.key}`)).status).toBe(200);
    const stored = () => blobKeys(srv, `workspaces/${doomed.id}`);
    expect(await stored()).not.toEqual([]);

    expect((await owner()(`/api/v1/workspaces/${doomed.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await listed()).map((w) => w.id)).not.toContain(doomed.id);
    expect((await srv.as({ bearer: key.bearer })('/api/v1/assets')).status).toBe(401);
    expect((await fetch(`${srv.url}/f/${asset.key}`)).status).toBe(404);
    expect(await stored()).toEqual([]);
    const acting = await owner()('/api/v1/assets', { headers: { 'x-folio-workspace': doomed.id } });
    expect(acting.status).toBe(404);
    expect((await owner()(`/api/v1/workspaces/${doomed.id}`, { method: 'DELETE' })).status).toBe(404);
    const rename = await owner()(`/api/v1/workspaces/${doomed.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ name: 'back' }),
    });
    expect(rename.status).toBe(404);
  });

  it('is for signed-in sessions: a key cannot list, create, rename or delete workspaces', async () => {
    const key = await srv.createKey({ services: ['assets'] });
    const personal = (await listed()).find((w) => w.personal)!;
    const asKey = srv.as({ bearer: key });
    expect((await asKey('/api/v1/workspaces')).status).toBe(403);
    expect((await asKey('/api/v1/workspaces', { method: 'POST', body: '{"name":"k"}' })).status).toBe(403);
    expect(
      (await asKey(`/api/v1/workspaces/${personal.id}`, { method: 'PATCH', body: '{"name":"k"}' })).status,
    ).toBe(403);
    expect((await asKey(`/api/v1/workspaces/${personal.id}`, { method: 'DELETE' })).status).toBe(403);
  });
});
