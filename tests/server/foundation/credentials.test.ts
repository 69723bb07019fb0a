// Who may do what (docs/api.md), driven by the route table, plus the key error matrix.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnyRoute, credentialsOf } from '../../../server/http/define-route.js';
import { SERVICE_NAMES } from '../../../server/http/viewer.js';
import { namedRoutes } from '../../../server/surfaces/route-table.js';
import { createTenant } from '../../helpers/factories.js';
import { type Credential, startTestServer, type TestServer } from '../../helpers/server.js';

let srv: TestServer;
let allServices: string;
beforeAll(async () => {
  srv = await startTestServer();
  allServices = await srv.createKey({ services: [...SERVICE_NAMES] });
});
afterAll(() => srv.close());

const routes = namedRoutes().filter((r) => !credentialsOf(r.route).includes('public'));
const SESSION_KINDS = ['session', 'workspaceOwner', 'instanceOwner'] as const;
const takesSession = (r: AnyRoute) =>
  credentialsOf(r).some((c) => (SESSION_KINDS as readonly string[]).includes(c));
const takesKey = (r: AnyRoute) => credentialsOf(r).includes('key');

function send(cred: Credential, route: AnyRoute, id = 'ws_00000000000000000000') {
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE' && !route.raw;
  return srv.as(cred)(route.path.replace(/:(\w+)/g, id), {
    method: route.method,
    ...(hasBody && { body: '{}' }),
  });
}

async function expectError(res: Response, status: number, label: string) {
  const body = await res.json();
  expect(res.status, `${label}: ${JSON.stringify(body)}`).toBe(status);
  expect(body.error, label).toEqual(expect.any(String));
}

describe('credential matrix from the route table', () => {
  it('covers session-only, key-only and owner-only routes', () => {
    expect(routes.filter((r) => takesSession(r.route) && !takesKey(r.route)).length).toBeGreaterThanOrEqual(
      8,
    );
    expect(routes.filter((r) => takesKey(r.route) && !takesSession(r.route)).length).toBeGreaterThanOrEqual(
      1,
    );
  });

  it('refuses every session-only route to an API key with 403', async () => {
    for (const { name, route } of routes.filter((r) => takesSession(r.route) && !takesKey(r.route)))
      await expectError(await send({ bearer: allServices }, route), 403, name);
  });

  it('refuses every key-only route to a session with 403', async () => {
    for (const { name, route } of routes.filter((r) => takesKey(r.route) && !takesSession(r.route)))
      await expectError(await send(srv.owner, route), 403, name);
  });

  it('answers 401 with {error} to every non-public route called with no credential', async () => {
    for (const { name, route } of routes) await expectError(await send(null, route), 401, name);
  });

  it("answers 404 to a non-owner renaming or deleting someone's workspace, which stays as it was", async () => {
    const mallory = await createTenant(srv, 'mallory@example.com');
    const victim = await createTenant(srv, 'victim@example.com');
    for (const route of routes.filter((r) => credentialsOf(r.route).includes('workspaceOwner')))
      await expectError(await send(mallory.session, route.route, victim.extraWorkspaceId), 404, route.name);
    const list = (await (await srv.as(victim.session)('/api/v1/workspaces')).json()) as {
      data: { id: string; name: string }[];
    };
    expect(list.data.find((w) => w.id === victim.extraWorkspaceId)?.name).toBe('victim@example.com extra');
  });

  it('refuses the instance-owner routes (waitlist list and invite, sign-in links) to an approved non-owner with 403', async () => {
    const user = await srv.signInApproved('user@example.com');
    const ownerOnly = routes.filter((r) => credentialsOf(r.route).includes('instanceOwner'));
    expect(ownerOnly.map((r) => r.name)).toEqual(
      expect.arrayContaining(['listWaitlist', 'inviteFromWaitlist']),
    );
    for (const { name, route } of ownerOnly) {
      const res = await srv.as(user)(route.path, {
        method: route.method,
        ...(route.method === 'POST' && { body: JSON.stringify({ email: 'friend@example.com' }) }),
      });
      await expectError(res, 403, name);
    }
    const waitlist = (await (await srv.as(srv.owner)('/api/v1/waitlist')).json()) as {
      data: { email: string }[];
    };
    expect(waitlist.data.map((e) => e.email)).not.toContain('friend@example.com');
  });
});
