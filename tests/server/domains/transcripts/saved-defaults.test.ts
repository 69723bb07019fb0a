/**
 * The owner's saved transcription defaults (Settings in the desktop app: PATCH /api/v1/settings `transcription`)
 * apply to new transcripts where a request says nothing, at once; a request's own choice wins.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsFile } from '../../../../server/domains/settings/settings-store.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import {
  audioForm,
  engineBuilt,
  type Fixtures,
  type Json,
  makeFixtures,
} from '../../../helpers/transcription.js';

describe.skipIf(!engineBuilt)('saved transcription defaults', () => {
  let fx: Fixtures;
  let srv: TestServer;
  let key: string;
  let dir: string;

  beforeAll(async () => {
    fx = makeFixtures();
    srv = await startTestServer({ whisperModel: fx.model });
    key = await srv.createKey({ services: ['transcription'] });
    dir = await mkdtemp(join(tmpdir(), 'folio-defaults-'));
    srv.deps.host.instanceSettings = settingsFile(join(dir, 'settings.json'));
  });
  afterAll(async () => {
    await srv?.close();
    fx?.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  const transcribe = async (fields: Record<string, string> = {}) =>
    (await (
      await srv.as({ bearer: key })('/api/v1/transcribe', {
        method: 'POST',
        body: audioForm(fx.speechBytes, 'speech.wav', fields),
      })
    ).json()) as Json;
  const save = (transcription: unknown) =>
    srv.as(srv.owner)('/api/v1/settings', { method: 'PATCH', body: JSON.stringify({ transcription }) });

  it('VAD off in Settings turns it off for the next transcript; a request asking for it still gets it', async () => {
    expect((await transcribe()).vad).not.toBeNull(); // on by default
    const saved = await save({ vad: false });
    expect(saved.status).toBe(200);
    expect((await saved.json()).saved.transcription).toEqual({ vad: false });
    expect((await transcribe()).vad).toBeNull();
    expect((await transcribe({ vad: 'true' })).vad).not.toBeNull();
  }, 120_000);

  it('a saved VAD threshold applies: one no frame reaches finds no speech', async () => {
    await save({ vad: true, vadThreshold: 0.999999 });
    const t = await transcribe();
    expect(t.vad.speech).toEqual([]);
    expect(t.text).toBe('');
    expect((await transcribe({ vadThreshold: '0.5' })).vad.speech.length).toBeGreaterThan(0);
  }, 120_000);

  it('refuses a wrong default with a 400 naming it', async () => {
    const res = await save({ vadThreshold: 3 });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('vadThreshold');
  });
});
