// Transcription over MCP on the generated random-weight model and espeak-ng speech: transcripts_create waits with
// progress notifications and cancelling the call cancels the transcript; every transcripts_* tool answers what
// its route answers; transcripts are resources and a prompt attaches one.
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolsFromRoutes } from '../../../../server/surfaces/mcp/tools/route-tools.js';
import { namedRoutes } from '../../../../server/surfaces/route-table.js';
import { createTenant } from '../../../helpers/factories.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { padTo } from '../../../helpers/speech.js';
import {
  engineBuilt,
  expectWellFormedTranscript,
  type Fixtures,
  makeFixtures,
} from '../../../helpers/transcription.js';
import { callError, called, callOk, callText, connect, type Json } from './harness.js';

describe.skipIf(!engineBuilt)('transcription over MCP', () => {
  let fx: Fixtures;
  let srv: TestServer;
  let client: Client;
  let bearer: string;
  let long: string;
  const rest = () => srv.as({ bearer });

  beforeAll(async () => {
    fx = makeFixtures();
    long = padTo(fx.speech, join(fx.dir, 'long.wav'), 120);
    srv = await startTestServer({ whisperModel: fx.model, agentFileRoots: [fx.dir] });
    bearer = await srv.createKey({ services: ['transcription'] });
    client = await connect(srv, bearer);
  });
  afterAll(async () => {
    await client?.close();
    await srv?.close();
    fx?.cleanup();
  });

  it('transcripts_create from base64 completes on the model; the transcript tools answer what REST answers', async () => {
    const progress: number[] = [];
    called.add('transcripts_create');
    const created = (await client.callTool(
      {
        name: 'transcripts_create',
        arguments: {
          contentBase64: fx.speechBytes.toString('base64'),
          filename: 'speech.wav',
          language: 'en',
        },
      },
      undefined,
      { onprogress: (p) => progress.push(p.progress) },
    )) as CallToolResult;
    const t = created.structuredContent as Json;
    expectWellFormedTranscript(t);
    expect(progress.at(-1)).toBe(100);
    expect(await callOk(client, 'transcripts_get', { id: t.id })).toEqual(
      await (await rest()(`/api/v1/transcripts/${t.id}`)).json(),
    );
    expect(await callOk(client, 'transcripts_list', { status: 'completed' })).toEqual(
      await (await rest()('/api/v1/transcripts?status=completed')).json(),
    );
    for (const format of ['srt', 'vtt', 'txt']) {
      const exported = await (await rest()(`/api/v1/transcripts/${t.id}/export?format=${format}`)).text();
      expect(await callText(client, 'transcripts_export', { id: t.id, format })).toBe(exported);
    }
    const restRetry = await rest()(`/api/v1/transcripts/${t.id}/retry`, { method: 'POST' });
    expect(await callError(client, 'transcripts_retry', { id: t.id })).toEqual({
      httpStatus: restRetry.status,
      ...((await restRetry.json()) as Json),
    });
    const deleted = (await client.callTool({
      name: 'transcripts_delete',
      arguments: { id: t.id },
    })) as CallToolResult;
    called.add('transcripts_delete');
    expect(deleted.isError).toBeFalsy();
    expect((await rest()(`/api/v1/transcripts/${t.id}`)).status).toBe(404);
    expect((await rest()(`/api/v1/assets/${t.audioAssetId}`)).status).toBe(403); // this key has no assets
  });

  it('transcripts_create from a local path reports rising progress, and cancelling the call cancels it', async () => {
    const controller = new AbortController();
    const progress: number[] = [];
    let abortedAt = 0;
    called.add('transcripts_create');
    // the whole two minutes (mostly silence) run, without VAD, one decode per window (no temperature fallback)
    const args = { path: long, vad: false, temperatureIncrement: 0 };
    const call = client.callTool({ name: 'transcripts_create', arguments: args }, undefined, {
      signal: controller.signal,
      timeout: 300_000,
      resetTimeoutOnProgress: true,
      onprogress: ({ progress: p, total }) => {
        expect(total).toBe(100);
        progress.push(p);
        if (p > 0 && !abortedAt) {
          abortedAt = performance.now();
          controller.abort('changed my mind');
        }
      },
    });
    await expect(call).rejects.toThrow();
    expect(progress.some((p) => p > 0 && p < 100)).toBe(true);
    expect(progress.every((p, i) => Number.isInteger(p) && (i === 0 || p > progress[i - 1]))).toBe(true);
    const list = (await (await rest()('/api/v1/transcripts?limit=1')).json()) as Json;
    const id = list.data[0].id;
    for (let t = 0; t < 100; t++) {
      const row = (await (await rest()(`/api/v1/transcripts/${id}`)).json()) as Json;
      if (row.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await (await rest()(`/api/v1/transcripts/${id}`)).json()).toMatchObject({
      status: 'failed',
      error: 'cancelled',
    });
    expect(performance.now() - abortedAt).toBeLessThan(5000);
  });

  it('transcripts_create takes the task and VAD arguments: VAD skips the silence, translate is refused on .en', async () => {
    const t = await callOk(client, 'transcripts_create', { path: long, vadThreshold: 0.5 });
    expect(t.vad.skippedSeconds).toBeGreaterThan(110);
    expect(t.vad.speech[0].start).toBeLessThan(1);
    const refused = await client.callTool({
      name: 'transcripts_create',
      arguments: { path: long, task: 'translate' },
    });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(/English-only model, which cannot translate/);
  });

  it('wait: false answers the pending transcript at once; transcripts_cancel cancels it', async () => {
    await copyFile(long, join(fx.dir, 'queued.wav'));
    const pending = await callOk(client, 'transcripts_create', {
      path: join(fx.dir, 'queued.wav'),
      wait: false,
    });
    expect(pending).toMatchObject({ status: expect.stringMatching(/pending|processing/), progress: 0 });
    const cancelled = await callOk(client, 'transcripts_cancel', { id: pending.id });
    expect(cancelled).toMatchObject({ id: pending.id, status: 'failed', error: 'cancelled' });
  });

  it('audio that cannot be decoded fails the call with the transcript and the status REST gives', async () => {
    const junk = Buffer.from('this is not audio at all').toString('base64');
    const restForm = new FormData();
    restForm.append('file', new Blob([Buffer.from('this is not audio at all')]), 'junk.wav');
    const restAnswer = await rest()('/api/v1/transcribe', { method: 'POST', body: restForm });
    const error = await callError(client, 'transcripts_create', {
      contentBase64: junk,
      filename: 'junk.wav',
    });
    const restBody = (await restAnswer.json()) as Json;
    expect(restBody.error).toMatch(/^could not decode audio/);
    expect(error).toMatchObject({
      httpStatus: restAnswer.status,
      status: 'failed',
      error: expect.stringMatching(/^could not decode audio/),
    });
  });

  it('a transcript is a resource, and summarize_transcript attaches it', async () => {
    const t = await callOk(client, 'transcripts_create', {
      contentBase64: fx.speechBytes.toString('base64'),
      filename: 'again.wav',
    });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((r) => r.uriTemplate)).toContain('folio://transcripts/{id}');
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain(`folio://transcripts/${t.id}`);
    const read = await client.readResource({ uri: `folio://transcripts/${t.id}` });
    expect(JSON.parse(String((read.contents[0] as { text: string }).text))).toEqual(
      await (await rest()(`/api/v1/transcripts/${t.id}`)).json(),
    );
    const prompt = await client.getPrompt({ name: 'summarize_transcript', arguments: { id: t.id } });
    expect(prompt.messages[0].content).toMatchObject({
      type: 'resource',
      resource: { uri: `folio://transcripts/${t.id}`, mimeType: 'application/json' },
    });
    await expect(
      client.getPrompt({ name: 'summarize_transcript', arguments: { id: 'trn_nope' } }),
    ).rejects.toThrow(/Transcript not found/);
  });

  it("another workspace's transcripts are not found through tools or resources", async () => {
    const mallory = await createTenant(srv, 'mallory@example.com');
    const theirs = await connect(srv, mallory.key.bearer);
    const own = await callOk(client, 'transcripts_list');
    const id = own.data[0].id;
    for (const name of [
      'transcripts_get',
      'transcripts_export',
      'transcripts_retry',
      'transcripts_cancel',
      'transcripts_delete',
    ])
      expect(await callError(theirs, name, { id }), name).toEqual({
        httpStatus: 404,
        error: 'Transcript not found',
      });
    await expect(theirs.readResource({ uri: `folio://transcripts/${id}` })).rejects.toThrow(/not found/);
    expect((await rest()(`/api/v1/transcripts/${id}`)).status).toBe(200);
    await theirs.close();
  });

  it('every transcript tool was called above', () => {
    const names = toolsFromRoutes(namedRoutes())
      .map((t) => t.name)
      .filter((n) => n.startsWith('transcripts_'));
    expect([...names, 'transcripts_create'].filter((n) => !called.has(n))).toEqual([]);
  });
});
