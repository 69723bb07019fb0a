import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../../helpers/server.js';
import { padTo } from '../../../helpers/speech.js';
import {
  engineBuilt,
  expectWellFormedTranscript,
  type Fixtures,
  type Json,
  makeFixtures,
  queueTranscript,
  waitForStatus,
} from '../../../helpers/transcription.js';

// The random micro model decodes junk slowly: 120 s of audio takes ~15-20 s here, so a cancel lands mid-job.
describe.skipIf(!engineBuilt)('transcription queue: cancel, delete, restart', () => {
  let fx: Fixtures;
  let long: Buffer;

  beforeAll(() => {
    fx = makeFixtures();
    long = readFileSync(padTo(fx.speech, join(fx.dir, 'long.wav'), 120));
  });
  afterAll(() => fx?.cleanup());

  it('cancels a processing job promptly and a pending one at once; DELETE of a processing one cancels it', async () => {
    const srv = await startTestServer({ whisperModel: fx.model });
    try {
      const key = await srv.createKey({ services: ['transcription'] });
      const api = srv.as({ bearer: key });
      const first = await queueTranscript(srv, key, long);
      const second = await queueTranscript(srv, key, long);
      const third = await queueTranscript(srv, key, long);
      await waitForStatus(srv, key, first.id, ['processing']);
      expect(((await (await api(`/api/v1/transcripts/${second.id}`)).json()) as Json).status).toBe('pending');
      // progress is reported while it runs: whole numbers that rise and stay below 100
      const seen: number[] = [];
      const until = Date.now() + 45_000; // generous: the first progress report waits for an encoder pass, slow on a busy machine
      while (Date.now() < until && !seen.some((p) => p > 0)) {
        seen.push(((await (await api(`/api/v1/transcripts/${first.id}`)).json()) as Json).progress);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(seen.some((p) => p > 0)).toBe(true);
      expect(
        seen.every((p, i) => Number.isInteger(p) && p < 100 && (i === 0 || p >= seen[i - 1])),
        JSON.stringify(seen),
      ).toBe(true);

      const pendingCancel = await api(`/api/v1/transcripts/${second.id}/cancel`, { method: 'POST' });
      expect(pendingCancel.status).toBe(200);
      expect(await pendingCancel.json()).toMatchObject({ status: 'failed', error: 'cancelled' });

      const started = performance.now();
      const cancelled = await api(`/api/v1/transcripts/${first.id}/cancel`, { method: 'POST' });
      expect(performance.now() - started).toBeLessThan(3000);
      expect(await cancelled.json()).toMatchObject({ status: 'failed', error: 'cancelled' });

      // the queue moves on to the third; deleting it while it runs cancels it and removes its audio
      await waitForStatus(srv, key, third.id, ['processing']);
      const deleted = await api(`/api/v1/transcripts/${third.id}`, { method: 'DELETE' });
      expect(deleted.status).toBe(204);
      expect((await api(`/api/v1/transcripts/${third.id}`)).status).toBe(404);

      // a cancelled transcript can be retried; the engine still works after the aborts
      const short = await queueTranscript(srv, key, fx.speechBytes);
      expectWellFormedTranscript(await waitForStatus(srv, key, short.id, ['completed', 'failed']));
      const retry = await api(`/api/v1/transcripts/${second.id}/retry`, { method: 'POST' });
      expect(((await retry.json()) as Json).status).toMatch(/pending|processing/);
      await api(`/api/v1/transcripts/${second.id}/cancel`, { method: 'POST' });
    } finally {
      await srv.close();
    }
  }, 120_000);

  it('completes jobs left pending and processing when the server closed, after a restart on the same data dir', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'folio-tx-restart-'));
    try {
      const first = await startTestServer({ whisperModel: fx.model, dataDir });
      const key = await first.createKey({ services: ['transcription'] });
      // the long clip is still running once the other three are queued, on any backend's request latency
      const queued = [await queueTranscript(first, key, long)];
      for (let i = 0; i < 3; i++) queued.push(await queueTranscript(first, key, fx.speechBytes));
      await waitForStatus(first, key, queued[0].id, ['processing']);
      await first.close();

      const second = await startTestServer({ whisperModel: fx.model, dataDir });
      try {
        for (const t of queued)
          expectWellFormedTranscript(
            await waitForStatus(second, key, t.id, ['completed', 'failed'], 150_000),
          );
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 400_000);
});
