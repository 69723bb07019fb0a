// One queue for every workspace (issue #38): workspaces take turns, so one workspace's backlog cannot starve
// another's; a job that makes no progress is ended with a clear error and the next one starts. The real worker on
// a generated model.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../../helpers/server.js';
import { padTo } from '../../../helpers/speech.js';
import {
  engineBuilt,
  type Fixtures,
  type Json,
  makeFixtures,
  queueTranscript,
  waitForStatus,
} from '../../../helpers/transcription.js';

describe.skipIf(!engineBuilt)('the transcription queue across workspaces', () => {
  let fx: Fixtures;
  let twoMinutes: Buffer;

  beforeAll(() => {
    fx = makeFixtures();
    twoMinutes = readFileSync(padTo(fx.speech, join(fx.dir, 'two-minutes.wav'), 120));
  });
  afterAll(() => fx?.cleanup());

  it('a workspace that queues one job waits for one job of a workspace with a backlog, not the whole backlog', async () => {
    const srv = await startTestServer({ whisperModel: fx.model, whisperThreads: 1 });
    try {
      const busy = await srv.createKey({ services: ['transcription'] });
      const created = await srv.as(srv.owner)('/api/v1/workspaces', {
        method: 'POST',
        body: JSON.stringify({ name: 'second' }),
      });
      expect(created.status).toBe(201);
      const second = await srv.createKey({
        services: ['transcription'],
        workspace: ((await created.json()) as Json).id,
      });
      const backlog = [];
      for (let i = 0; i < 4; i++) backlog.push(await queueTranscript(srv, busy, twoMinutes));
      const single = await queueTranscript(srv, second, fx.speechBytes);

      const settled = async (key: string, t: Json) =>
        waitForStatus(srv, key, t.id, ['completed', 'failed'], 120_000);
      const done = await settled(second, single);
      expect(done.status).toBe('completed');
      const backlogDone = await Promise.all(backlog.map((t) => settled(busy, t)));
      for (const t of backlogDone) expect(t.status).toBe('completed');
      // The backlog's jobs still unfinished when the single one was queued: the first of them was running then.
      // The single job runs as soon as that one ends, before the rest (on a slow machine the first jobs may all
      // have ended while the backlog was still being uploaded, so count from when the single job was queued).
      const unfinished = backlogDone
        .filter((t) => t.completedAt > single.createdAt)
        .map((t) => t.completedAt as string)
        .sort();
      expect(unfinished.length).toBeGreaterThanOrEqual(2);
      expect(done.completedAt < unfinished[1]).toBe(true);
    } finally {
      await srv.close();
    }
  }, 180_000);

  it('a job whose worker stops making progress is ended with a clear error, and the next job runs', async () => {
    const srv = await startTestServer({ whisperModel: fx.model, whisperThreads: 1, jobStallMs: 1_500 });
    try {
      const key = await srv.createKey({ services: ['transcription'] });
      const stuck = await queueTranscript(srv, key, twoMinutes);
      const next = await queueTranscript(srv, key, fx.speechBytes);
      const engine = await srv.deps.engine.engine();
      for (let i = 0; i < 600; i++) {
        const seen = (await (
          await srv.as({ bearer: key })(`/api/v1/transcripts/${stuck.id}`)
        ).json()) as Json;
        if (seen.status === 'processing') break;
        await new Promise((r) => setTimeout(r, 20));
      }
      await new Promise((r) => setTimeout(r, 300)); // decoded, and in the worker
      const pid = engine.status().pid;
      expect(pid).toBeTypeOf('number');
      process.kill(pid as number, 'SIGSTOP'); // a hung kernel: alive, but its computation no longer advances
      const failed = await waitForStatus(srv, key, stuck.id, ['completed', 'failed'], 30_000);
      expect(failed.status).toBe('failed');
      expect(failed.error).toBe('the transcription made no progress for 2 s, so it was stopped');
      const after = await waitForStatus(srv, key, next.id, ['completed', 'failed'], 60_000);
      expect(after.status).toBe('completed');
    } finally {
      await srv.close();
    }
  }, 120_000);
});
