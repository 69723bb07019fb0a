// A packaged app ships the whisper.cpp worker outside the checkout, with its libraries and backend modules beside
// it: `whisperWorker` (--whisper-worker, FOLIO_WHISPER_WORKER) points the engine at it, and a transcript that
// cannot find it says which path it tried.
import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultWorkerPath } from '../../../../server/engines/whisper/whisper-engine.js';
import { startTestServer } from '../../../helpers/server.js';
import {
  engineBuilt,
  type Json,
  makeFixtures,
  queueTranscript,
  waitForStatus,
} from '../../../helpers/transcription.js';

describe.skipIf(!engineBuilt)('the whisper worker path', () => {
  it('runs the worker the configuration names, and names a missing one in the transcript error', async () => {
    const fx = makeFixtures();
    const dir = await mkdtemp(join(tmpdir(), 'folio-worker-'));
    const moved = join(dir, 'folio-whisper-worker');
    const built = dirname(defaultWorkerPath);
    for (const entry of await readdir(built, { withFileTypes: true }))
      if (entry.isFile()) await copyFile(join(built, entry.name), join(dir, entry.name));
    const working = await startTestServer({ whisperModel: fx.model, whisperWorker: moved });
    const missing = await startTestServer({
      whisperModel: fx.model,
      whisperWorker: join(dir, 'absent-worker'),
    });
    try {
      const key = await working.createKey({ services: ['transcription'] });
      const done = await waitForStatus(
        working,
        key,
        (await queueTranscript(working, key, fx.speechBytes)).id,
        ['completed', 'failed'],
      );
      expect((done as Json).status).toBe('completed');
      const otherKey = await missing.createKey({ services: ['transcription'] });
      const failed = (await waitForStatus(
        missing,
        otherKey,
        (
          await queueTranscript(missing, otherKey, fx.speechBytes)
        ).id,
        ['completed', 'failed'],
      )) as Json;
      expect(failed.status).toBe('failed');
      expect(failed.error).toContain(join(dir, 'absent-worker'));
    } finally {
      await working.close();
      await missing.close();
      fx.cleanup();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
