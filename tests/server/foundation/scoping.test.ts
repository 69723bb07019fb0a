// A key used outside its services gets 403 naming the service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_NAMES } from '../../../server/http/viewer.js';
import { namedRoutes } from '../../../server/surfaces/route-table.js';
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
