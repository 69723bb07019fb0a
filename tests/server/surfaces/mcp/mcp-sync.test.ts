// The sync protocol's tools through the SDK client: the same answers as the routes, and an asset pushed over MCP
// (its bytes in a pack whose parts go over HTTP, the one raw route) appears in the REST list.
import { createHash, randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchKey, canonicalJson } from '../../../../server/domains/sync/protocol/content-hash.js';
import { toolsFromRoutes } from '../../../../server/surfaces/mcp/tools/route-tools.js';
import { namedRoutes } from '../../../../server/surfaces/route-table.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { callError, called, callOk, connect, type Json } from './harness.js';

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

let srv: TestServer;
let client: Client;
let bearer: string;
beforeAll(async () => {
  srv = await startTestServer();
  bearer = await srv.createKey({ services: ['assets', 'transcription'] });
  client = await connect(srv, bearer);
});
afterAll(async () => {
  await client.close();
  await srv.close();
});

describe('sync tools', () => {
  it('info, plan, packs, push and changes answer over MCP what the routes answer', async () => {
    expect(await callOk(client, 'sync_info')).toEqual(
      await (await srv.as({ bearer })('/api/v1/sync/info')).json(),
    );

    const bytes = Buffer.from(randomBytes(600).toString('base64').slice(0, 600));
    const at = '2026-05-01T10:00:00.000Z';
    const record = {
      displayName: 'agent-notes.txt',
      filename: 'agent-notes.txt',
      tags: ['mcp'],
      type: 'document',
      contentType: 'text/plain; charset=utf-8',
      size: bytes.length,
      sha256: sha(bytes),
      createdAt: at,
      updatedAt: at,
    };
    const { updatedAt: _, ...fields } = record;
    const ref = {
      kind: 'asset',
      id: 'ast_frommcpagent01',
      rev: 1,
      baseSeq: 0,
      sha256: sha(canonicalJson({ kind: 'asset', fields })),
    };
    const plan = await callOk(client, 'sync_plan', {
      records: [ref],
      blobs: [{ sha256: sha(bytes), size: bytes.length }],
    });
    expect(plan).toMatchObject({ records: [{ action: 'push' }], missingBlobs: [sha(bytes)] });

    const pack = await callOk(client, 'sync_packs_begin', {
      blobs: [{ sha256: sha(bytes), size: bytes.length }],
      partSize: 1024,
    });
    const put = await srv.as({ bearer })(`/api/v1/sync/packs/${pack.uploadId}/parts/0`, {
      method: 'PUT',
      body: new Uint8Array(bytes),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(put.status).toBe(200);
    expect(await callOk(client, 'sync_packs_get', { uploadId: pack.uploadId })).toMatchObject({
      missingParts: [],
    });
    expect(await callOk(client, 'sync_packs_complete', { uploadId: pack.uploadId })).toEqual({
      stored: [sha(bytes)],
      failed: [],
    });

    const items = [{ ...ref, record }];
    const refused = await callError(client, 'sync_push', { records: items });
    expect(JSON.stringify(refused)).toMatch(/Idempotency-Key/);
    const pushed = await callOk(client, 'sync_push', { records: items, idempotencyKey: batchKey(items) });
    expect(pushed.results).toMatchObject([{ id: ref.id, outcome: 'applied', status: 201 }]);
    const listed = (await (await srv.as({ bearer })('/api/v1/assets')).json()) as Json;
    expect(listed.data.map((a: Json) => a.id)).toContain(ref.id);

    const changes = await callOk(client, 'sync_changes', { since: 0 });
    expect(changes).toEqual(await (await srv.as({ bearer })('/api/v1/sync/changes?since=0')).json());
    expect(changes.changes.map((c: Json) => c.id)).toContain(ref.id);
  });

  it('every sync tool was called above', () => {
    const tools = toolsFromRoutes(namedRoutes())
      .map((t) => t.name)
      .filter((name) => name.startsWith('sync_'));
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.filter((name) => !called.has(name))).toEqual([]);
  });
});
