import { readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import {
  audioForm,
  engineBuilt,
  expectWellFormedTranscript,
  type Fixtures,
  type Json,
  makeFixtures,
  queueTranscript,
  waitForStatus,
} from '../../../helpers/transcription.js';

describe.skipIf(!engineBuilt)('transcripts API (micro random model)', () => {
  let fx: Fixtures;
  let srv: TestServer;
  let key: string;

  beforeAll(async () => {
    fx = makeFixtures();
    srv = await startTestServer({ whisperModel: fx.model });
    key = await srv.createKey({ services: ['transcription'] });
  });
  afterAll(async () => {
    await srv?.close();
    fx?.cleanup();
  });

  const api = () => srv.as({ bearer: key });
  const transcribe = (form: FormData) => api()('/api/v1/transcribe', { method: 'POST', body: form });

  it('transcribes an upload through the queue and the engine, with words, and lists and exports it', async () => {
    const res = await transcribe(audioForm(fx.speechBytes, 'speech.wav', { language: 'en' }));
    expect(res.status).toBe(200);
    const t = (await res.json()) as Json;
    expectWellFormedTranscript(t);
    expect(t.language).toBe('en');
    expect(t.model).toBe('micro.bin');
    expect(t.completedAt).toBeTruthy();

    const asset = await srv.as({ bearer: await srv.createKey({ services: ['assets'] }) })(
      `/api/v1/assets/${t.audioAssetId}`,
    );
    expect(asset.status).toBe(200);
    expect(((await asset.json()) as Json).type).toBe('audio');

    const detail = (await (await api()(`/api/v1/transcripts/${t.id}`)).json()) as Json;
    expect(detail).toEqual(t);

    const list = (await (await api()('/api/v1/transcripts?status=completed')).json()) as Json;
    const item = list.data.find((x: Json) => x.id === t.id);
    expect(item).toBeTruthy();
    expect(item.segments).toBeUndefined();
    expect(item.words).toBeUndefined();

    const srt = await api()(`/api/v1/transcripts/${t.id}/export?format=srt`);
    expect(srt.headers.get('content-type')).toBe('application/x-subrip; charset=utf-8');
    expect(srt.headers.get('content-disposition')).toBe(`attachment; filename="${t.id}.srt"`);
    expect(await srt.text()).toMatch(/^1\n\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}\n/);

    const vtt = await api()(`/api/v1/transcripts/${t.id}/export?format=vtt`);
    expect(vtt.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    expect(await vtt.text()).toMatch(/^WEBVTT\n\n\d\d:\d\d:\d\d\.\d{3} --> \d\d:\d\d:\d\d\.\d{3}\n/);

    const txt = await api()(`/api/v1/transcripts/${t.id}/export?format=txt`);
    expect(txt.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await txt.text()).toBe(`${t.text}\n`);

    const json = await api()(`/api/v1/transcripts/${t.id}/export?format=json`);
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(json.headers.get('content-disposition')).toContain(`${t.id}.json`);
    expect(await json.json()).toEqual(t);

    expect((await api()(`/api/v1/transcripts/${t.id}/export?format=docx`)).status).toBe(400);
  });

  it('pages newest first with nextCursor and checks limit and status', async () => {
    for (let i = 0; i < 3; i++) await queueTranscript(srv, key, fx.speechBytes);
    const all = ((await (await api()('/api/v1/transcripts?limit=200')).json()) as Json).data as Json[];
    const seen: string[] = [];
    let cursor = '';
    for (;;) {
      const page = (await (await api()(`/api/v1/transcripts?limit=2${cursor}`)).json()) as Json;
      seen.push(...page.data.map((t: Json) => t.id));
      if (!page.nextCursor) break;
      cursor = `&cursor=${page.nextCursor}`;
    }
    expect(seen).toEqual(all.map((t) => t.id));
    const created = all.map((t) => t.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
    for (const bad of ['0', '201', 'x', '1.5'])
      expect((await api()(`/api/v1/transcripts?limit=${bad}`)).status).toBe(400);
    expect((await api()('/api/v1/transcripts?status=done')).status).toBe(400);
    expect((await api()('/api/v1/transcripts?cursor=nonsense')).status).toBe(400);
    for (const t of all) await waitForStatus(srv, key, t.id, ['completed', 'failed']);
  });

  it('retries only pending or failed transcripts (409 otherwise) and a retried one completes again', async () => {
    const res = await transcribe(audioForm(fx.speechBytes));
    const t = (await res.json()) as Json;
    const refused = await api()(`/api/v1/transcripts/${t.id}/retry`, { method: 'POST' });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as Json).error).toMatch(/completed/);
    const cancelRefused = await api()(`/api/v1/transcripts/${t.id}/cancel`, { method: 'POST' });
    expect(cancelRefused.status).toBe(409);
  });

  it('fails corrupt audio with a clear error and keeps serving', async () => {
    const res = await transcribe(
      audioForm(Buffer.from('RIFF....WAVEfmt this is not audio at all'.repeat(50)), 'broken.wav'),
    );
    expect(res.status).toBe(422);
    const t = (await res.json()) as Json;
    expect(t.status).toBe('failed');
    expect(t.error).toMatch(/could not decode audio/);
    const retried = await api()(`/api/v1/transcripts/${t.id}/retry`, { method: 'POST' });
    expect(retried.status).toBe(200);
    expect(((await retried.json()) as Json).status).toMatch(/pending|processing|failed/);
    const failedAgain = await waitForStatus(srv, key, t.id, ['failed']);
    expect(failedAgain.error).toMatch(/could not decode audio/);
    const ok = await transcribe(audioForm(fx.speechBytes));
    expect(ok.status).toBe(200);
  });

  it('answers 413 over 4 MiB, enforced while streaming, and leaves nothing behind', async () => {
    const assetsBefore = (await srv.deps.assets.usage(await workspaceOf())).assets;
    const transcriptsBefore = ((await (await api()('/api/v1/transcripts?limit=200')).json()) as Json).data
      .length;
    const big = Buffer.alloc((4 << 20) + 1024, 1);
    const res = await transcribe(audioForm(big, 'big.wav'));
    expect(res.status).toBe(413);
    expect(((await res.json()) as Json).error).toMatch(/limit/);
    // chunked transfer: no Content-Length to refuse early, so the limit must hold while streaming
    const form = new Request('http://x', { method: 'POST', body: audioForm(big, 'big.wav') });
    const chunked = await fetch(`${srv.url}/api/v1/transcribe`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': form.headers.get('content-type')! },
      body: form.body,
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect((await srv.deps.assets.usage(await workspaceOf())).assets).toBe(assetsBefore);
    const transcriptsAfter = ((await (await api()('/api/v1/transcripts?limit=200')).json()) as Json).data
      .length;
    expect(transcriptsAfter).toBe(transcriptsBefore);
    expect(readdirSync(srv.deps.store.tmpDir).filter((f) => f.startsWith('upload-'))).toEqual([]);
  });

  it('deletes a transcript with its audio asset; other credentials get 404 and 403', async () => {
    const t = (await (await transcribe(audioForm(fx.speechBytes))).json()) as Json;
    const ws = await workspaceOf();
    const file = `workspaces/${ws}/files/${t.audioAssetId}`;
    expect(await srv.deps.store.blobs.stat(file)).toBeDefined();
    const stranger = await srv.signInApproved('stranger@example.com');
    expect((await srv.as(stranger)(`/api/v1/transcripts/${t.id}`)).status).toBe(404);
    const noService = await srv.createKey({ services: ['assets'] });
    const refused = await srv.as({ bearer: noService })(`/api/v1/transcripts/${t.id}`);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as Json).service).toBe('transcription');
    expect((await srv.as(srv.owner)(`/api/v1/transcripts/${t.id}`)).status).toBe(200);

    expect((await api()(`/api/v1/transcripts/${t.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api()(`/api/v1/transcripts/${t.id}`)).status).toBe(404);
    await expect(srv.deps.assets.get(ws, t.audioAssetId)).rejects.toThrow(/not found/);
    expect(await srv.deps.store.blobs.stat(file)).toBeUndefined();
  });

  async function workspaceOf(): Promise<string> {
    const me = (await (await api()('/api/v1/me')).json()) as Json;
    return me.workspace.id;
  }
});

describe.skipIf(!engineBuilt)('transcription without a usable model', () => {
  it('fails transcripts with an error naming how to install a model; everything else keeps working', async () => {
    const fx = makeFixtures();
    const srv = await startTestServer();
    try {
      const key = await srv.createKey({ services: ['transcription', 'assets'] });
      const res = await srv.as({ bearer: key })('/api/v1/transcribe', {
        method: 'POST',
        body: audioForm(fx.speechBytes),
      });
      expect(res.status).toBe(503);
      const t = (await res.json()) as Json;
      expect(t.status).toBe('failed');
      expect(t.error).toMatch(/No Whisper model is installed/);
      expect(t.error).toMatch(/--whisper-model/);
      expect(t.error).toMatch(/models/);
      expect((await srv.as({ bearer: key })('/api/v1/assets')).status).toBe(200);
      const models = (await (await srv.as({ bearer: key })('/api/v1/models')).json()) as Json;
      expect(models.active).toBeNull();
      expect(models.catalog.some((m: Json) => m.name === 'tiny.en')).toBe(true);
    } finally {
      await srv.close();
      fx.cleanup();
    }
  });

  it('reports an invalid --whisper-model at start-up and names it in every transcript error', async () => {
    const fx = makeFixtures();
    const bad = join(fx.dir, 'not-a-model.bin');
    await writeFile(bad, 'definitely not ggml');
    const srv = await startTestServer({ whisperModel: bad });
    try {
      expect(srv.logs.some((l) => l.includes('Whisper model') && l.includes(bad))).toBe(true);
      const key = await srv.createKey({ services: ['transcription'] });
      for (let i = 0; i < 2; i++) {
        const res = await srv.as({ bearer: key })('/api/v1/transcribe', {
          method: 'POST',
          body: audioForm(fx.speechBytes),
        });
        const t = (await res.json()) as Json;
        expect(t.status).toBe('failed');
        expect(t.error).toContain(bad);
        expect(t.error).toMatch(/--whisper-model/);
      }
      expect((await srv.as({ bearer: key })('/api/v1/me')).status).toBe(200);
    } finally {
      await srv.close();
      fx.cleanup();
    }
  });
});
