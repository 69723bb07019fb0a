// The dashboard's chunked upload (session only): same parts and answers as the key path, Origin-checked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../../helpers/server.js';
import { type Fixtures, makeFixtures } from '../../../../helpers/transcription.js';

let srv: TestServer;
let fx: Fixtures;
beforeAll(async () => {
  fx = makeFixtures();
  srv = await startTestServer({ whisperModel: fx.model });
});
afterAll(async () => {
  await srv.close();
  fx.cleanup();
});

const BASE = '/api/v1/session-uploads/chunked';

describe('dashboard chunked upload', () => {
  it('a session uploads long audio in parts and gets the asset and a pending transcript', async () => {
    const api = srv.as(srv.owner);
    const bytes = fx.speechBytes;
    const partSize = 32 << 10;
    const begun = await api(BASE, {
      method: 'POST',
      body: JSON.stringify({ filename: 'memo.wav', contentType: 'audio/wav', size: bytes.length, partSize }),
    });
    expect(begun.status).toBe(201);
    const { uploadId, partCount } = await begun.json();
    expect(partCount).toBe(Math.ceil(bytes.length / partSize));
    for (let i = partCount - 1; i >= 0; i--) {
      const part = bytes.subarray(i * partSize, Math.min(bytes.length, (i + 1) * partSize));
      const put = await api(`${BASE}/${uploadId}/parts/${i}`, { method: 'PUT', body: new Uint8Array(part) });
      expect(put.status).toBe(200);
    }
    const status = await (await api(`${BASE}/${uploadId}`)).json();
    expect(status.missingParts).toEqual([]);
    const done = await api(`${BASE}/${uploadId}/complete`, { method: 'POST' });
    expect(done.status).toBe(200);
    const { transcript, asset } = await done.json();
    expect(asset).toMatchObject({ type: 'audio', size: bytes.length, displayName: 'memo.wav' });
    expect(transcript.audioAssetId).toBe(asset.id);
    expect(['pending', 'processing', 'completed']).toContain(transcript.status);
  });

  it('is for sessions only: a key (even with transcription) is told to use its own path', async () => {
    const key = await srv.createKey({ services: ['transcription'] });
    const res = await srv.as({ bearer: key })(BASE, {
      method: 'POST',
      body: JSON.stringify({ filename: 'a.wav', contentType: 'audio/wav', size: 10 }),
    });
    expect(res.status).toBe(403);
  });

  it('a write from another origin is refused, and another workspace’s upload is a 404', async () => {
    const foreign = await srv.as(srv.owner)(BASE, {
      method: 'POST',
      body: JSON.stringify({ filename: 'a.wav', contentType: 'audio/wav', size: 10 }),
      headers: { origin: 'http://127.0.0.1:1' },
    });
    expect(foreign.status).toBe(403);
    const begun = await (
      await srv.as(srv.owner)(BASE, {
        method: 'POST',
        body: JSON.stringify({ filename: 'a.wav', contentType: 'audio/wav', size: 10 }),
      })
    ).json();
    const other = await srv.signInApproved('other@example.com');
    expect((await srv.as(other)(`${BASE}/${begun.uploadId}`)).status).toBe(404);
  });

  it('bad input gets 400 with the field named', async () => {
    const res = await srv.as(srv.owner)(BASE, {
      method: 'POST',
      body: JSON.stringify({ filename: '', contentType: 'audio/wav', size: 0 }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).issues.map((i: { path: string }) => i.path)).toEqual(
      expect.arrayContaining(['filename', 'size']),
    );
  });
});
