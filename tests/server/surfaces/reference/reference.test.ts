// docs/agents.md: /api/v1/openapi.json and /llms.txt come from the route table the server mounts.
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialsOf } from '../../../../server/http/define-route.js';
import { namedRoutes } from '../../../../server/surfaces/route-table.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';

type OpenApi = {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, Record<string, unknown>>>;
};

let srv: TestServer;
let doc: OpenApi;
let llms: string;
beforeAll(async () => {
  srv = await startTestServer();
  doc = (await (await fetch(`${srv.url}/api/v1/openapi.json`)).json()) as OpenApi;
  llms = await (await fetch(`${srv.url}/llms.txt`)).text();
});
afterAll(() => srv.close());

const documented = namedRoutes().filter((r) => !r.route.hidden);
const toOpenApi = (path: string) => path.replace(/:(\w+)/g, '{$1}').replace(/\*(\w+)/g, '{$1}');

describe('reference documents', () => {
  it('serves an OpenAPI document that validates as OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(doc.servers[0].url).toBe(srv.url);
  });

  it('documents every mounted, non-hidden route in OpenAPI with its operationId, credentials and service', () => {
    expect(documented.length).toBeGreaterThan(20);
    for (const { name, route } of documented) {
      const op = doc.paths[toOpenApi(route.path)]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(op.operationId).toBe(name);
      expect(op['x-folio-credentials']).toEqual(credentialsOf(route));
      expect(op['x-folio-service']).toBe(route.service);
    }
    const operations = Object.values(doc.paths).flatMap((methods) => Object.keys(methods));
    expect(operations).toHaveLength(documented.length);
  });

  it('documents nothing that is not mounted: every documented operation answers with something other than 404/405', async () => {
    for (const [path, methods] of Object.entries(doc.paths))
      for (const method of Object.keys(methods)) {
        const url = path.replace(/\{(\w+)\}/g, 'x');
        const res = await fetch(`${srv.url}${url}`, { method: method.toUpperCase(), redirect: 'manual' });
        const text = await res.text();
        expect(text, `${method} ${path}`).not.toMatch(/Not found: |Method not allowed/);
      }
  });

  it('/llms.txt starts with "# Folio" and lists every documented route linking to its operation', async () => {
    const res = await fetch(`${srv.url}/llms.txt`);
    expect(res.headers.get('content-type')).toMatch(/^text\/(markdown|plain)/);
    expect(llms.startsWith('# Folio\n')).toBe(true);
    for (const { name, route } of documented)
      expect(llms, name).toContain(`[${route.method} ${route.path}](${srv.url}/api/v1/openapi.json#${name})`);
    const hidden = namedRoutes().filter((r) => r.route.hidden);
    for (const { route } of hidden) expect(llms).not.toContain(`[${route.method} ${route.path}]`);
  });

  it('/llms-full.txt carries each documented route with its schema', async () => {
    const full = await (await fetch(`${srv.url}/llms-full.txt`)).text();
    expect(full.startsWith('# Folio\n')).toBe(true);
    for (const { route } of documented) expect(full).toContain(`### ${route.method} ${route.path}\n`);
  });
});
