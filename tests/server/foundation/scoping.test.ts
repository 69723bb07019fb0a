// Spec §5 (key services) and §7.2: a key used outside its services gets 403 naming the service.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namedRoutes } from '../../../server/capabilities/index.js';
import { mintSecret } from '../../../server/capabilities/keys/secret.js';
import { SERVICE_NAMES, type ServiceName } from '../../../server/http/viewer.js';
import { hostedTests } from '../../helpers/hosted/backend.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(() => srv.close());

const serviceRoutes = namedRoutes().filter((r) => r.route.service);
const pathOf = (path: string) => path.replace(/:(\w+)/g, 'ast_00000000000000000000');

async function call(bearer: string, route: (typeof serviceRoutes)[number]['route']) {
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE' && !route.raw;
  return srv.as({ bearer })(pathOf(route.path), { method: route.method, ...(hasBody && { body: '{}' }) });
}

describe('key scoping', () => {
  it('has service-scoped routes to check', () => {
    expect(serviceRoutes.length).toBeGreaterThanOrEqual(5);
  });

  it.each(SERVICE_NAMES.filter((s) => serviceRoutes.some((r) => r.route.service === s)))(
    'a key with every service but %s gets 403 naming that service on each of its routes',
    async (service) => {
      const enabled = SERVICE_NAMES.filter((s) => s !== service);
      const key = await srv.createKey({ services: enabled });
      for (const { name, route } of serviceRoutes.filter((r) => r.route.service === service)) {
        const res = await call(key, route);
        const body = await res.json();
        expect(res.status, `${name}: ${JSON.stringify(body)}`).toBe(403);
        expect(body).toEqual({ error: expect.stringContaining(service), service, enabledServices: enabled });
      }
    },
  );

  it('a key with no services gets 403 naming the service on every service route, yet may call /me and /services', async () => {
    const key = await srv.createKey({ services: [] });
    for (const { name, route } of serviceRoutes) {
      const res = await call(key, route);
      expect(res.status, name).toBe(403);
      expect(await res.json()).toEqual({
        error: expect.any(String),
        service: route.service,
        enabledServices: [],
      });
    }
    expect((await srv.as({ bearer: key })('/api/v1/me')).status).toBe(200);
    expect((await srv.as({ bearer: key })('/api/v1/services')).status).toBe(200);
  });

  it("removing a service from a key refuses that key's very next call to it with 403 naming it", async () => {
    const { bearer, id } = await srv.createKeyDetails({ services: ['assets', 'transcription'] });
    expect((await srv.as({ bearer })('/api/v1/assets')).status).toBe(200);
    const patch = await srv.as(srv.owner)(`/api/v1/api-keys/${id}`, {
      method: 'PATCH',
      body: JSON.stringify({ services: ['transcription'] }),
    });
    expect(patch.status).toBe(200);
    expect(((await patch.json()) as { services: string[] }).services).toEqual(['transcription']);
    const res = await srv.as({ bearer })('/api/v1/assets');
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      error: expect.any(String),
      service: 'assets',
      enabledServices: ['transcription'],
    });
    await srv.as(srv.owner)(`/api/v1/api-keys/${id}`, {
      method: 'PATCH',
      body: JSON.stringify({ services: ['assets'] }),
    });
    expect((await srv.as({ bearer })('/api/v1/assets')).status).toBe(200);
  });
});

describe('backfill of keys created before services existed', () => {
  // Seeds the file backend's files as an older Folio wrote them; a hosted database never held that shape.
  it.skipIf(hostedTests)(
    'gives a key stored without services exactly assets and transcription, once, and records the schema version',
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'folio-backfill-'));
      const { secret, prefix, hash } = mintSecret();
      const at = '2025-01-01T00:00:00.000Z';
      const workspace = {
        id: 'ws_OLDOLDOLDOLDOLDOLD01',
        name: 'Old',
        ownerId: 'usr_OLDOLDOLDOLDOLDOLD01',
        personal: true,
        createdAt: at,
        updatedAt: at,
      };
      const key = {
        id: 'key_OLDOLDOLDOLDOLDOLD01',
        workspaceId: workspace.id,
        name: 'legacy',
        prefix,
        hash: hash.toString('hex'),
        createdAt: at,
        updatedAt: at,
        lastUsedAt: null,
      };
      await mkdir(join(dataDir, 'instance'), { recursive: true });
      const user = {
        id: workspace.ownerId,
        email: 'old@example.com',
        name: 'old',
        createdAt: at,
        updatedAt: at,
      };
      await writeFile(join(dataDir, 'instance', 'users.json'), JSON.stringify({ rows: [user] }));
      await writeFile(join(dataDir, 'instance', 'workspaces.json'), JSON.stringify({ rows: [workspace] }));
      await writeFile(join(dataDir, 'instance', 'api-keys.json'), JSON.stringify({ rows: [key] }));
      try {
        for (let start = 0; start < 2; start++) {
          const legacy = await startTestServer({ dataDir });
          try {
            const me = await legacy.as({ bearer: secret })('/api/v1/me');
            expect(me.status).toBe(200);
            const body = (await me.json()) as { key: { services: ServiceName[] }; workspace: { id: string } };
            expect(body.workspace.id).toBe(workspace.id);
            expect([...body.key.services].sort()).toEqual(['assets', 'transcription']);
            expect((await legacy.as({ bearer: secret })('/api/v1/assets')).status).toBe(200);
          } finally {
            await legacy.close();
          }
        }
        expect(
          JSON.parse(await readFile(join(dataDir, 'meta.json'), 'utf8')).schemaVersion,
        ).toBeGreaterThanOrEqual(1);
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );

  it('leaves a key that already has services (even none) as it is', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'folio-backfill-'));
    const first = await startTestServer({ dataDir });
    const bearer = await first.createKey({ services: [] });
    await first.close();
    const again = await startTestServer({ dataDir });
    try {
      const body = (await (await again.as({ bearer })('/api/v1/me')).json()) as {
        key: { services: string[] };
      };
      expect(body.key.services).toEqual([]);
    } finally {
      await again.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
