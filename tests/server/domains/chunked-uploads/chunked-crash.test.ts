// Chunked complete is idempotent across a crash: if it dies after making the asset and transcript but before
// recording its result, the retried complete answers the same asset and transcript and makes no second one.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { FaultInjector } from '../../../../server/store/file/faults.js';
import { hostedTests } from '../../../helpers/hosted/backend.js';
import { startTestServer } from '../../../helpers/server.js';
import { engineBuilt, type Json } from '../../../helpers/transcription.js';

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
      const up = (await (
        await api('/api/v1/uploads/chunked', {
          method: 'POST',
          body: JSON.stringify({
            filename: 'a.wav',
            contentType: 'audio/wav',
            size: bytes.length,
            partSize: 4096,
          }),
        })
      ).json()) as Json;
      for (let i = 0; i < 3; i++) {
        const res = await api(`/api/v1/uploads/chunked/${up.uploadId}/parts/${i}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/octet-stream' },
          body: bytes.subarray(i * 4096, (i + 1) * 4096),
        });
        expect(res.status).toBe(200);
      }
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
});
