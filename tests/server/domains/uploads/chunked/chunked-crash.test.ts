// Chunked complete is idempotent across a crash: if it dies after making the asset and transcript but before
// recording its result, the retried complete answers the same asset and transcript and makes no second one.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunkedUploads } from '../../../../../server/domains/uploads/chunked/collections.js';
import type { FaultInjector } from '../../../../../server/store/file/faults.js';
import { hostedTests } from '../../../../helpers/hosted/backend.js';
import { startTestServer } from '../../../../helpers/server.js';
import { engineBuilt, type Json } from '../../../../helpers/transcription.js';

type Api = ReturnType<Awaited<ReturnType<typeof startTestServer>>['as']>;

/** Begins a chunked upload of `bytes` in 4 KiB parts and sends every part. */
async function sendAllParts(api: Api, bytes: Buffer<ArrayBuffer>, filename: string): Promise<Json> {
  const up = (await (
    await api('/api/v1/uploads/chunked', {
      method: 'POST',
      body: JSON.stringify({ filename, contentType: 'audio/wav', size: bytes.length, partSize: 4096 }),
    })
  ).json()) as Json;
  for (let i = 0; i * 4096 < bytes.length; i++) {
    const res = await api(`/api/v1/uploads/chunked/${up.uploadId}/parts/${i}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: bytes.subarray(i * 4096, (i + 1) * 4096),
    });
    expect(res.status).toBe(200);
  }
  return up;
}

// The crash is a fault injected into the file backend's journal (its test seam); PostgreSQL has no such seam.
describe.skipIf(!engineBuilt || hostedTests)('chunked complete across a crash', () => {
  it('a retried complete finds what the interrupted one made', async () => {
    let failResult = false;
    // The step after the asset and transcript are written: the upload record's result. A crash there is this fault.
    const faults: FaultInjector = (step) =>
      failResult && step.op === 'journal-append' && step.path.endsWith('chunked-uploads.log')
        ? { code: 'EIO' }
        : undefined;
    const srv = await startTestServer({}, { faults });
    try {
      const key = await srv.createKey({ services: ['transcription', 'assets'] });
      const api = srv.as({ bearer: key });
      const bytes = randomBytes(10_000);
      const up = await sendAllParts(api, bytes, 'a.wav');
      failResult = true;
      const interrupted = await api(`/api/v1/uploads/chunked/${up.uploadId}/complete`, { method: 'POST' });
      expect(interrupted.status).toBe(503);
      failResult = false;
      const retried = await api(`/api/v1/uploads/chunked/${up.uploadId}/complete`, { method: 'POST' });
      expect(retried.status).toBe(200);
      const done = (await retried.json()) as Json;
      const assets = (await (await api('/api/v1/assets')).json()) as Json;
      expect(assets.data.map((a: Json) => a.id)).toEqual([done.asset.id]);
      const transcripts = (await (await api('/api/v1/transcripts')).json()) as Json;
      expect(transcripts.data.map((t: Json) => t.id)).toEqual([done.transcript.id]);
      expect(done.asset.size).toBe(bytes.length);
    } finally {
      await srv.close();
    }
  });

  it('a complete cut off by the end of its process is opened again at start, so the next complete goes ahead', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'folio-chunked-restart-'));
    try {
      let srv = await startTestServer({ dataDir });
      const { bearer, workspaceId } = await srv.createKeyDetails({ services: ['transcription', 'assets'] });
      const bytes = randomBytes(6000);
      let api = srv.as({ bearer });
      const up = await sendAllParts(api, bytes, 'b.wav');
      // What a process that died inside its complete leaves: the upload taken, with a lease of minutes still to run.
      const records = srv.deps.store.collection(chunkedUploads, workspaceId);
      const taken = await records.update(up.uploadId, {
        status: 'completing',
        claimUntil: new Date(Date.now() + 10 * 60_000).toISOString(),
      });
      expect(taken?.status).toBe('completing');
      expect((await api(`/api/v1/uploads/chunked/${up.uploadId}/complete`, { method: 'POST' })).status).toBe(
        409,
      );
      await srv.close();

      srv = await startTestServer({ dataDir });
      api = srv.as({ bearer });
      try {
        const done = await api(`/api/v1/uploads/chunked/${up.uploadId}/complete`, { method: 'POST' });
        expect(done.status).toBe(200);
        expect(((await done.json()) as Json).asset.size).toBe(bytes.length);
      } finally {
        await srv.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
