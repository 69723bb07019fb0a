// Every tool outside transcription (mcp-transcription.test.ts) called end to end through the SDK client, with its
// effect checked over REST: a tool answers exactly what its route answers, errors included.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handWrittenTools } from '../../../../server/surfaces/mcp/tools/index.js';
import { toolsFromRoutes } from '../../../../server/surfaces/mcp/tools/route-tools.js';
import { namedRoutes } from '../../../../server/surfaces/route-table.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { callError, called, callOk, connect, type Json } from './harness.js';

let srv: TestServer;
let client: Client;
let bearer: string;
let allowed: string;
let outside: string;
const rest = () => srv.as({ bearer });
const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

beforeAll(async () => {
  allowed = await mkdtemp(join(tmpdir(), 'folio-agent-files-'));
  outside = await mkdtemp(join(tmpdir(), 'folio-private-'));
  srv = await startTestServer({ agentFileRoots: [allowed] });
  bearer = await srv.createKey({ services: ['assets', 'transcription', 'realtime'] });
  client = await connect(srv, bearer);
});
afterAll(async () => {
  await client.close();
  await srv.close();
  await rm(allowed, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe('account', () => {
  it('account_me and services_list answer what GET /me and /services answer', async () => {
    expect(await callOk(client, 'account_me')).toEqual(await (await rest()('/api/v1/me')).json());
    expect(await callOk(client, 'services_list')).toEqual(await (await rest()('/api/v1/services')).json());
  });
});

describe('assets', () => {
  it('assets_upload from base64: the asset appears in the REST list and its bytes are served', async () => {
    const asset = await callOk(client, 'assets_upload', {
      contentBase64: b64('hello from MCP'),
      filename: 'hello.txt',
      tags: ['mcp'],
    });
    expect(asset).toMatchObject({ filename: 'hello.txt', tags: ['mcp'], type: 'document', size: 14 });
    const list = (await (await rest()('/api/v1/assets?tags=mcp')).json()) as Json;
    expect(list.data.map((a: Json) => a.id)).toEqual([asset.id]);
    expect(await (await fetch(asset.urls.file)).text()).toBe('hello from MCP');
  });

  it('assets_upload from a path in an allowed folder copies it with progress notifications', async () => {
    const bytes = Buffer.alloc(3 << 20, 7);
    await mkdir(join(allowed, 'sub'));
    await writeFile(join(allowed, 'sub', 'blob.bin'), bytes);
    const progress: Array<{ progress: number; total?: number }> = [];
    called.add('assets_upload');
    const result = await client.callTool(
      { name: 'assets_upload', arguments: { path: join(allowed, 'sub', 'blob.bin'), displayName: 'Blob' } },
      undefined,
      { onprogress: (p) => progress.push(p) },
    );
    const asset = result.structuredContent as Json;
    expect(asset).toMatchObject({ displayName: 'Blob', filename: 'blob.bin', size: bytes.length });
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)).toMatchObject({ progress: bytes.length, total: bytes.length });
    expect(progress.every((p, i) => i === 0 || p.progress > progress[i - 1].progress)).toBe(true);
    const served = Buffer.from(await (await fetch(asset.urls.file)).arrayBuffer());
    expect(served.equals(bytes)).toBe(true);
  });

  it('assets_upload refuses paths outside the allowed folders, however they get there', async () => {
    await writeFile(join(outside, 'secret.txt'), 'secret');
    await symlink(join(outside, 'secret.txt'), join(allowed, 'link.txt'));
    await symlink(outside, join(allowed, 'linked-dir'));
    const cases: Array<[Json, number, RegExp]> = [
      [{ path: join(outside, 'secret.txt') }, 403, /outside the folders/],
      [{ path: `${allowed}/../${outside.split('/').at(-1)}/secret.txt` }, 403, /outside the folders/],
      [{ path: join(allowed, 'link.txt') }, 403, /outside the folders/],
      [{ path: join(allowed, 'linked-dir', 'secret.txt') }, 403, /outside the folders/],
      [{ path: join(outside, 'missing.txt') }, 403, /outside the folders/],
      [{ path: join(allowed, 'missing.txt') }, 404, /File not found/],
      [{ path: 'relative.txt' }, 400, /absolute/],
      [{ path: allowed }, 403, /outside the folders/],
      [{ path: join(allowed, 'sub') }, 400, /not a regular file/],
      [
        { path: join(allowed, 'sub', 'blob.bin'), contentBase64: b64('x'), filename: 'x' },
        400,
        /either path/,
      ],
      [{ contentBase64: b64('x') }, 400, /either path/],
      [{ contentBase64: '***', filename: 'x' }, 400, /contentBase64/],
    ];
    for (const [args, status, message] of cases) {
      const error = await callError(client, 'assets_upload', args);
      expect(error.httpStatus, JSON.stringify(args)).toBe(status);
      expect(error.error, JSON.stringify(args)).toMatch(message);
    }
    const list = (await (await rest()('/api/v1/assets?search=secret')).json()) as Json;
    expect(list.data).toEqual([]);
  });

  it('without allowed folders a path is refused and the error says how the owner allows one', async () => {
    const other = await startTestServer();
    try {
      const key = await other.createKey({ services: ['assets'] });
      const c = await connect(other, key);
      const error = await callError(c, 'assets_upload', { path: join(allowed, 'sub', 'blob.bin') });
      expect(error).toMatchObject({ httpStatus: 403, error: expect.stringContaining('--agent-file-root') });
      await c.close();
    } finally {
      await other.close();
    }
  });

  it('assets_list, assets_get, assets_update and assets_delete answer exactly what their routes answer', async () => {
    const { id } = await callOk(client, 'assets_upload', { contentBase64: b64('abc'), filename: 'abc.txt' });
    expect(await callOk(client, 'assets_list', { limit: 2 })).toEqual(
      await (await rest()('/api/v1/assets?limit=2')).json(),
    );
    expect(await callOk(client, 'assets_get', { id })).toEqual(
      await (await rest()(`/api/v1/assets/${id}`)).json(),
    );
    const updated = await callOk(client, 'assets_update', { id, displayName: 'Renamed', tags: ['a', 'b'] });
    expect(updated).toMatchObject({ displayName: 'Renamed', tags: ['a', 'b'] });
    expect(await (await rest()(`/api/v1/assets/${id}`)).json()).toEqual(updated);
    // errors: the same status and body as REST
    const restBad = await rest()('/api/v1/assets?limit=500');
    expect(await callError(client, 'assets_list', { limit: 500 })).toEqual({
      httpStatus: restBad.status,
      ...((await restBad.json()) as Json),
    });
    const restEmpty = await rest()(`/api/v1/assets/${id}`, { method: 'PATCH', body: '{}' });
    expect(await callError(client, 'assets_update', { id })).toEqual({
      httpStatus: restEmpty.status,
      ...((await restEmpty.json()) as Json),
    });
    expect((await client.callTool({ name: 'assets_delete', arguments: { id } })).isError).toBeFalsy();
    called.add('assets_delete');
    expect((await rest()(`/api/v1/assets/${id}`)).status).toBe(404);
    expect(await callError(client, 'assets_delete', { id })).toEqual({
      httpStatus: 404,
      error: 'Asset not found',
    });
  });

  it('assets_mint_grant mints a grant a browser can upload with', async () => {
    const minted = await callOk(client, 'assets_mint_grant', { maxBytes: 100, tags: ['granted'] });
    expect(minted.uploadUrl).toBe(`${srv.url}/api/v1/uploads/client`);
    const form = new FormData();
    form.append('file', new Blob(['granted bytes'], { type: 'text/plain' }), 'g.txt');
    const res = await fetch(minted.uploadUrl, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${minted.grant}` },
    });
    expect(res.status).toBe(201);
    const list = (await (await rest()('/api/v1/assets?tags=granted')).json()) as Json;
    expect(list.data).toHaveLength(1);
  });

  it('refuses arguments a tool does not take, and names them', async () => {
    expect(await callError(client, 'assets_list', { colour: 'red', limit: 5 })).toMatchObject({
      httpStatus: 400,
      error: 'Unknown argument: colour',
    });
    await expect(client.callTool({ name: 'assets_frobnicate', arguments: {} })).rejects.toThrow(
      /Unknown tool: assets_frobnicate/,
    );
  });
});

describe('chunked uploads, realtime, models', () => {
  it('uploads a file in base64 parts and completes it into an audio asset and a pending transcript', async () => {
    const bytes = Buffer.alloc(5000, 1);
    const begun = await callOk(client, 'chunked_uploads_begin', {
      filename: 'long.wav',
      contentType: 'audio/wav',
      size: bytes.length,
      partSize: 2048,
    });
    expect(begun).toMatchObject({ partSize: 2048, partCount: 3 });
    const { uploadId } = begun;
    for (const index of [2, 0]) {
      const part = bytes.subarray(index * 2048, (index + 1) * 2048);
      expect(
        await callOk(client, 'chunked_uploads_put_part', { uploadId, index, contentBase64: b64(part) }),
      ).toMatchObject({ index, size: part.length });
    }
    expect(await callOk(client, 'chunked_uploads_get', { uploadId })).toMatchObject({ missingParts: [1] });
    const incomplete = await callError(client, 'chunked_uploads_complete', { uploadId });
    expect(incomplete).toMatchObject({ httpStatus: 400, error: expect.stringContaining('1') });
    const wrong = await callError(client, 'chunked_uploads_put_part', {
      uploadId,
      index: 1,
      contentBase64: b64(bytes.subarray(2048, 4096)),
      sha256: '0'.repeat(64),
    });
    expect(wrong).toMatchObject({ httpStatus: 400, error: expect.stringContaining('SHA-256') });
    await callOk(client, 'chunked_uploads_put_part', {
      uploadId,
      index: 1,
      contentBase64: b64(bytes.subarray(2048, 4096)),
    });
    const done = await callOk(client, 'chunked_uploads_complete', { uploadId });
    expect(done.asset).toMatchObject({ type: expect.any(String), size: bytes.length });
    expect(done.transcript).toMatchObject({ status: expect.stringMatching(/pending|processing|failed/) });
    expect((await rest()(`/api/v1/transcripts/${done.transcript.id}`)).status).toBe(200);

    const other = await callOk(client, 'chunked_uploads_begin', {
      filename: 'x.wav',
      contentType: 'audio/wav',
      size: 10,
    });
    expect(
      (await client.callTool({ name: 'chunked_uploads_abort', arguments: { uploadId: other.uploadId } }))
        .isError,
    ).toBeFalsy();
    called.add('chunked_uploads_abort');
    expect(await callError(client, 'chunked_uploads_get', { uploadId: other.uploadId })).toEqual({
      httpStatus: 410,
      error: 'This upload was aborted',
    });
  });

  it('realtime_create_session mints a single-use secret for the WebSocket', async () => {
    const session = await callOk(client, 'realtime_create_session', { expiresIn: 30 });
    expect(session).toMatchObject({
      clientSecret: { value: expect.stringMatching(/^frt_/) },
      websocketUrl: `${srv.url.replace('http', 'ws')}/api/v1/realtime/ws`,
      audio: { format: 'pcm16', channels: 1 },
    });
  });

  it('models_list and models_download_status answer what their routes answer', async () => {
    expect(await callOk(client, 'models_list')).toEqual(await (await rest()('/api/v1/models')).json());
    const restMissing = await rest()('/api/v1/models/downloads/tiny.en');
    expect(await callError(client, 'models_download_status', { name: 'tiny.en' })).toEqual({
      httpStatus: restMissing.status,
      ...((await restMissing.json()) as Json),
    });
  });
});

describe('coverage', () => {
  it('every tool but the transcript, publishing and sync ones (their own files) was called above', () => {
    const tools = [...toolsFromRoutes(namedRoutes()), ...handWrittenTools]
      .map((t) => t.name)
      .filter((name) => !/^(transcripts|charts|diagrams|artifacts|sync)_/.test(name));
    expect(tools.filter((name) => !called.has(name))).toEqual([]);
  });
});
