// The API key lifecycle through the API: create (secret once), list, rename, change services, last used,
// keys of a second workspace, and revoke; another workspace's key is a 404 and stays as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceName } from '../../../../server/http/viewer.js';
import { createTenant, createWorkspace } from '../../../helpers/factories.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';

type Key = {
  id: string;
  name: string;
  prefix: string;
  services: ServiceName[];
  workspaceId: string;
  createdAt: string;
  updatedAt: string;
  lastUsedAt: string | null;
  secret?: string;
};

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(() => srv.close());

const owner = () => srv.as(srv.owner);
const list = async (headers: Record<string, string> = {}) =>
  ((await (await owner()('/api/v1/api-keys', { headers })).json()) as { data: Key[] }).data;

async function create(name: string, services: ServiceName[], headers: Record<string, string> = {}) {
  const res = await owner()('/api/v1/api-keys', {
    method: 'POST',
    body: JSON.stringify({ name, services }),
    headers,
  });
  expect(res.status).toBe(201);
  return (await res.json()) as Key & { secret: string };
}

describe('API keys', () => {
  it('creates a key bound to the workspace, shows its secret once and lists it by prefix', async () => {
    const me = (await (await owner()('/api/v1/me')).json()) as { workspace: { id: string } };
    const key = await create('deploy bot', ['assets']);
    expect(key).toMatchObject({
      name: 'deploy bot',
      services: ['assets'],
      workspaceId: me.workspace.id,
      lastUsedAt: null,
    });
    expect(key.secret.startsWith(key.prefix)).toBe(true);
    const listed = (await list()).find((k) => k.id === key.id)!;
    expect(listed).toEqual({ ...key, secret: undefined });
    expect(Object.keys(listed)).not.toContain('secret');
    expect(Object.keys(listed)).not.toContain('hash');
  });

  it('renames a key and changes its services; the secret keeps working with the new services', async () => {
    const key = await create('before', ['assets']);
    await new Promise((r) => setTimeout(r, 5));
    const renamed = await owner()(`/api/v1/api-keys/${key.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ name: 'after' }),
    });
    expect(renamed.status).toBe(200);
    const body = (await renamed.json()) as Key;
    expect(body).toMatchObject({ id: key.id, name: 'after', services: ['assets'], prefix: key.prefix });
    expect(Date.parse(body.updatedAt)).toBeGreaterThan(Date.parse(key.updatedAt));
    const bearer = srv.as({ bearer: key.secret });
    expect((await bearer('/api/v1/transcripts')).status).toBe(403);
    const widened = await owner()(`/api/v1/api-keys/${key.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ services: ['assets', 'transcription'] }),
    });
    expect(((await widened.json()) as Key).services).toEqual(['assets', 'transcription']);
    expect((await bearer('/api/v1/transcripts')).status).toBe(200);
    expect((await list()).find((k) => k.id === key.id)).toMatchObject({
      name: 'after',
      services: ['assets', 'transcription'],
    });
  });

  it('records when a key was last used', async () => {
    const key = await create('used', ['assets']);
    expect((await list()).find((k) => k.id === key.id)?.lastUsedAt).toBeNull();
    const before = Date.now();
    expect((await srv.as({ bearer: key.secret })('/api/v1/assets')).status).toBe(200);
    const used = (await list()).find((k) => k.id === key.id)?.lastUsedAt;
    expect(used).toEqual(expect.any(String));
    expect(Date.parse(used!)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(used!)).toBeLessThanOrEqual(Date.now());
  });

  it('creates a key for a second workspace with X-Folio-Workspace; it acts there and is listed only there', async () => {
    const second = await createWorkspace(srv, srv.owner, 'Second for keys');
    const header = { 'x-folio-workspace': second.id };
    const key = await create('second', ['assets'], header);
    expect(key.workspaceId).toBe(second.id);
    const me = (await (await srv.as({ bearer: key.secret })('/api/v1/me')).json()) as {
      workspace: { id: string };
    };
    expect(me.workspace.id).toBe(second.id);
    expect((await list(header)).map((k) => k.id)).toContain(key.id);
    expect((await list()).map((k) => k.id)).not.toContain(key.id);
    // from the personal workspace the key is not there: 404, and it is left as it was
    const fromPersonal = await owner()(`/api/v1/api-keys/${key.id}`, { method: 'DELETE' });
    expect(fromPersonal.status).toBe(404);
    expect((await srv.as({ bearer: key.secret })('/api/v1/assets')).status).toBe(200);
  });

  it("answers 404 to renaming or revoking another user's key, which keeps working unchanged", async () => {
    const other = await createTenant(srv, 'other-keys@example.com');
    const theirs = ((await (await srv.as(other.session)('/api/v1/api-keys')).json()) as { data: Key[] })
      .data[0];
    for (const init of [
      { method: 'PATCH', body: JSON.stringify({ name: 'stolen', services: [] }) },
      { method: 'DELETE' },
    ]) {
      const res = await owner()(`/api/v1/api-keys/${theirs.id}`, init);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: expect.any(String) });
    }
    const after = ((await (await srv.as(other.session)('/api/v1/api-keys')).json()) as { data: Key[] }).data;
    expect(after.find((k) => k.id === theirs.id)).toMatchObject({
      name: theirs.name,
      services: theirs.services,
    });
    expect((await srv.as({ bearer: other.key.bearer })('/api/v1/assets')).status).toBe(200);
  });

  it('revokes a key: gone from the list, refused on its next request, and a second revoke is 404', async () => {
    const key = await create('short-lived', ['assets']);
    expect((await owner()(`/api/v1/api-keys/${key.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await list()).map((k) => k.id)).not.toContain(key.id);
    expect((await srv.as({ bearer: key.secret })('/api/v1/assets')).status).toBe(401);
    expect((await owner()(`/api/v1/api-keys/${key.id}`, { method: 'DELETE' })).status).toBe(404);
    const patch = await owner()(`/api/v1/api-keys/${key.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ name: 'again' }),
    });
    expect(patch.status).toBe(404);
  });
});
