// A device change while recordings transcribe (issue #38): the worker finishes what it runs and then restarts, so
// no job fails for it, however quickly the changes come. The real worker on a generated model, through the API.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsFile } from '../../../../server/domains/settings/settings-store.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { padTo } from '../../../helpers/speech.js';
import {
  engineBuilt,
  type Fixtures,
  type Json,
  makeFixtures,
  queueTranscript,
  waitForStatus,
} from '../../../helpers/transcription.js';

describe.skipIf(!engineBuilt)('changing the Whisper device while jobs run', () => {
  let fx: Fixtures;
  let srv: TestServer;
  let key: string;
  let settingsDir: string;
  let long: Buffer;

  beforeAll(async () => {
    fx = makeFixtures();
    // two minutes: long enough on the micro model that a change lands while it runs
    long = readFileSync(padTo(fx.speech, join(fx.dir, 'long.wav'), 120));
    srv = await startTestServer({ whisperModel: fx.model, whisperThreads: 1 });
    settingsDir = await mkdtemp(join(tmpdir(), 'folio-device-change-'));
    srv.deps.host.instanceSettings = settingsFile(join(settingsDir, 'settings.json'));
    key = await srv.createKey({ services: ['transcription'] });
  });
  afterAll(async () => {
    await srv?.close();
    fx?.cleanup();
    await rm(settingsDir, { recursive: true, force: true });
  });

  const setDevice = async (whisperDevice: string) => {
    const res = await srv.as(srv.owner)('/api/v1/settings', {
      method: 'PATCH',
      body: JSON.stringify({ whisperDevice }),
    });
    expect(res.status).toBe(200);
  };

  it('a change while a recording transcribes lets it finish, and the next job runs on the new device', async () => {
    const running = await queueTranscript(srv, key, long);
    const deadline = Date.now() + 30_000;
    let seen: Json = running;
    while (!(seen.status === 'processing' && seen.progress > 0) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      seen = (await (await srv.as({ bearer: key })(`/api/v1/transcripts/${running.id}`)).json()) as Json;
    }
    expect(seen.status).toBe('processing');
    await setDevice('cpu');
    const done = await waitForStatus(srv, key, running.id, ['completed', 'failed'], 120_000);
    expect(done.error ?? null).toBeNull();
    expect(done.status).toBe('completed');
    expect(done.duration).toBeCloseTo(120, 0);

    const next = await queueTranscript(srv, key, fx.speechBytes);
    expect((await waitForStatus(srv, key, next.id, ['completed', 'failed'])).status).toBe('completed');
    const models = (await (await srv.as({ bearer: key })('/api/v1/models')).json()) as Json;
    expect(models.device).toMatchObject({ kind: 'cpu', preference: 'cpu' });
  }, 180_000);

  it('changes sent back to back while four jobs wait fail none of them, five rounds over', async () => {
    const failures: string[] = [];
    for (let round = 0; round < 5; round++) {
      const queued = [];
      for (let i = 0; i < 4; i++) queued.push(await queueTranscript(srv, key, fx.speechBytes));
      for (const device of ['cpu', 'gpu', 'auto']) await setDevice(device);
      for (const t of queued) {
        const settled = await waitForStatus(srv, key, t.id, ['completed', 'failed'], 60_000);
        if (settled.status !== 'completed') failures.push(`round ${round}: ${settled.error}`);
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
