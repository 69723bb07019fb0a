// The REST scoping matrix (tests/server/foundation/scoping.test.ts and isolation.test.ts), generated from the
// same route table and run over MCP: a tool outside a key's services is not listed and fails naming the service;
// another workspace's ids are not found; a revoked key or a withdrawn service is refused at once.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_NAMES, type ServiceName } from '../../../../server/http/viewer.js';
import { handWrittenTools } from '../../../../server/surfaces/mcp/tools/index.js';
import { toolsFromRoutes } from '../../../../server/surfaces/mcp/tools/route-tools.js';
import { namedRoutes } from '../../../../server/surfaces/route-table.js';
import { createTenant, uploadAsset } from '../../../helpers/factories.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { callError, callOk, connect } from './harness.js';

let srv: TestServer;
const clients: Client[] = [];
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await srv.close();
});

const allTools = [...toolsFromRoutes(namedRoutes()), ...handWrittenTools];
const namesOf = (service?: ServiceName) => allTools.filter((t) => t.service === service).map((t) => t.name);

async function clientFor(services: ServiceName[]) {
  const key = await srv.createKeyDetails({ services });
  const client = await connect(srv, key.bearer);
  clients.push(client);
  return { client, ...key };
}

const listed = async (client: Client) => (await client.listTools()).tools.map((t) => t.name).sort();

/** Arguments that pass validation for any tool, so that only authorization can refuse the call. */
function plausibleArgs(name: string): Record<string, unknown> {
  const tool = allTools.find((t) => t.name === name)!;
  const { properties = {}, required = [] } = tool.definition.inputSchema as {
    properties?: Record<string, { type?: string }>;
    required?: string[];
  };
  return Object.fromEntries(
    required.map((field) => [field, properties[field]?.type === 'integer' ? 0 : 'ast_00000000000000000000']),
  );
}

describe('tools by service', () => {
  it('has tools for the services that have routes, and tools open to every key', () => {
    expect(namesOf('assets').length).toBeGreaterThanOrEqual(6);
    expect(namesOf('transcription').length).toBeGreaterThanOrEqual(8);
    expect(namesOf(undefined)).toEqual(expect.arrayContaining(['account_me', 'services_list']));
  });

  it.each(SERVICE_NAMES.filter((s) => namesOf(s).length > 0))(
    'a key without %s lists exactly the tools of every other service, and calling one of its tools fails naming it',
    async (service) => {
      const enabled = SERVICE_NAMES.filter((s) => s !== service);
      const everything = await clientFor([...SERVICE_NAMES]);
      const without = await clientFor(enabled);
      const all = await listed(everything.client);
      expect(all).toEqual(allTools.map((t) => t.name).sort());
      const withoutList = await listed(without.client);
      expect(withoutList.every((name) => all.includes(name))).toBe(true);
      expect(all.filter((name) => !withoutList.includes(name))).toEqual(namesOf(service).sort());
      for (const name of namesOf(service)) {
        const error = await callError(without.client, name, plausibleArgs(name));
        expect(error, name).toEqual({
          httpStatus: 403,
          error: expect.stringContaining(service),
          service,
          enabledServices: enabled,
        });
      }
    },
  );

  it('a key with no services lists only account tools and is refused every service tool with 403 naming it', async () => {
    const { client } = await clientFor([]);
    expect(await listed(client)).toEqual(namesOf(undefined).sort());
    for (const tool of allTools.filter((t) => t.service)) {
      const error = await callError(client, tool.name, plausibleArgs(tool.name));
      expect(error, tool.name).toMatchObject({ httpStatus: 403, service: tool.service, enabledServices: [] });
    }
    expect((await callOk(client, 'account_me')).viaKey).toBe(true);
  });

  it("withdrawing a service drops its tools from the key's very next list and refuses its very next call", async () => {
    const { client, id } = await clientFor(['assets', 'transcription']);
    expect(await listed(client)).toEqual(expect.arrayContaining(['assets_list']));
    const patch = await srv.as(srv.owner)(`/api/v1/api-keys/${id}`, {
      method: 'PATCH',
      body: JSON.stringify({ services: ['transcription'] }),
    });
    expect(patch.status).toBe(200);
    expect(await listed(client)).not.toContain('assets_list');
    expect(await callError(client, 'assets_list')).toMatchObject({
      httpStatus: 403,
      service: 'assets',
      enabledServices: ['transcription'],
    });
  });
});

describe('revoked keys and other workspaces', () => {
  it('a revoked key is refused on its open session at once, and cannot open another', async () => {
    const { client, id, bearer } = await clientFor(['assets']);
    expect((await callOk(client, 'assets_list')).data).toEqual([]);
    const revoke = await srv.as(srv.owner)(`/api/v1/api-keys/${id}`, { method: 'DELETE' });
    expect(revoke.status).toBe(204);
    const refused = { code: 401, message: expect.stringContaining('Invalid or revoked API key') };
    await expect(client.callTool({ name: 'assets_list', arguments: {} })).rejects.toMatchObject(refused);
    await expect(connect(srv, bearer)).rejects.toMatchObject(refused);
  });

  it("another workspace's ids are not found through tools or resources, and nothing of theirs changes", async () => {
    const alice = await createTenant(srv, 'alice@example.com');
    const bob = await createTenant(srv, 'bob@example.com');
    const bobAsset = await uploadAsset(srv, bob.key.bearer, 'bob.txt');
    const client = await connect(srv, alice.key.bearer);
    clients.push(client);
    for (const [name, args] of [
      ['assets_get', { id: bobAsset }],
      ['assets_update', { id: bobAsset, displayName: 'stolen' }],
      ['assets_delete', { id: bobAsset }],
    ] as const) {
      expect(await callError(client, name, args), name).toEqual({
        httpStatus: 404,
        error: 'Asset not found',
      });
    }
    await expect(client.readResource({ uri: `folio://assets/${bobAsset}` })).rejects.toThrow(
      /Asset not found/,
    );
    const asBob = await (await srv.as({ bearer: bob.key.bearer })(`/api/v1/assets/${bobAsset}`)).json();
    expect(asBob).toMatchObject({ id: bobAsset, displayName: 'bob.txt' });
    const aliceList = await callOk(client, 'assets_list');
    expect(aliceList.data.map((a: { id: string }) => a.id)).not.toContain(bobAsset);
  });
});
