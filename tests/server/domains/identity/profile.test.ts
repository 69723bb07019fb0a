// Who you are through the API: /me for a session, a key and a second workspace; the profile name; sign-out
// ends only this session; a session waiting for approval sees its state and nothing else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace } from '../../../helpers/factories.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ ownerEmail: 'owner@example.com' });
});
afterAll(() => srv.close());

type Me = {
  isApproved: boolean;
  profile: { id: string; email: string; name: string; isInstanceOwner: boolean };
  workspace: { id: string; name: string; ownerId: string };
  viaKey: boolean;
  key?: { id: string; name: string; prefix: string; services: string[] };
};

const me = async (credential: Parameters<TestServer['as']>[0], headers: Record<string, string> = {}) =>
  (await (await srv.as(credential)('/api/v1/me', { headers })).json()) as Me;

describe('identity', () => {
  it('/me tells a session, a key and a second workspace apart', async () => {
    const bySession = await me(srv.owner);
    expect(bySession).toMatchObject({
      isApproved: true,
      viaKey: false,
      profile: { email: 'owner@example.com', isInstanceOwner: true },
    });
    expect(bySession.workspace.ownerId).toBe(bySession.profile.id);
    expect(bySession.key).toBeUndefined();

    const { bearer, id } = await srv.createKeyDetails({ services: ['assets'] });
    const byKey = await me({ bearer });
    expect(byKey).toMatchObject({
      isApproved: true,
      viaKey: true,
      profile: { id: bySession.profile.id },
      workspace: { id: bySession.workspace.id },
      key: { id, services: ['assets'] },
    });

    const second = await createWorkspace(srv, srv.owner, 'Elsewhere');
    const there = await me(srv.owner, { 'x-folio-workspace': second.id });
    expect(there.workspace).toMatchObject({ id: second.id, name: 'Elsewhere' });
  });

  it('updates the profile name with a session, not with a key', async () => {
    const res = await srv.as(srv.owner)('/api/v1/me', {
      method: 'PATCH',
      body: JSON.stringify({ name: '  Ada  ' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: 'Ada', email: 'owner@example.com' });
    expect((await me(srv.owner)).profile.name).toBe('Ada');
    const key = await srv.createKey({ services: ['assets'] });
    const byKey = await srv.as({ bearer: key })('/api/v1/me', {
      method: 'PATCH',
      body: JSON.stringify({ name: 'Mallory' }),
    });
    expect(byKey.status).toBe(403);
    expect((await me(srv.owner)).profile.name).toBe('Ada');
  });

  it('signs out this session only: its cookie is cleared and refused next, another session goes on', async () => {
    const first = await srv.signInApproved('two-devices@example.com');
    const second = await srv.signIn('two-devices@example.com');
    const out = await srv.as(first)('/auth/sign-out', { method: 'POST' });
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie().join()).toMatch(/folio_session=;.*expires=Thu, 01 Jan 1970/i);
    const after = await srv.as(first)('/api/v1/me');
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({ error: expect.stringMatching(/sign in again/) });
    expect((await me(second)).profile.email).toBe('two-devices@example.com');
  });

  it('a session waiting for approval sees that it waits, may sign out, and nothing else', async () => {
    const waiting = await srv.signIn('waiting@example.com');
    expect(await me(waiting)).toEqual({ isApproved: false, email: 'waiting@example.com' });
    for (const [path, init] of [
      ['/api/v1/workspaces', {}],
      ['/api/v1/assets', {}],
      ['/api/v1/workspaces', { method: 'POST', body: '{"name":"mine"}' }],
      ['/api/v1/me', { method: 'PATCH', body: '{"name":"x"}' }],
    ] as const) {
      const res = await srv.as(waiting)(path, init);
      expect(res.status, path).toBe(403);
      expect(await res.json()).toMatchObject({ error: expect.any(String), isApproved: false });
    }
    expect((await srv.as(waiting)('/auth/sign-out', { method: 'POST' })).status).toBe(204);
    expect((await srv.as(waiting)('/api/v1/me')).status).toBe(401);
  });
});
