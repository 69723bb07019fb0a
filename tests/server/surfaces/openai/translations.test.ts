/**
 * Translation and the per-request options (voice activity detection, guards) on Folio's and the OpenAI-compatible
 * routes, with the real engine: a multilingual random model translates (its text is nonsense, the task is real);
 * an English-only one is refused with a 400 that says why.
 */
import { join } from 'node:path';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layout, layoutWav } from '../../../../scripts/lib/speech-layout.js';
import { generateModel, modelPresets } from '../../../helpers/generate-model.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import {
  audioForm,
  engineBuilt,
  type Fixtures,
  type Json,
  makeFixtures,
} from '../../../helpers/transcription.js';

describe.skipIf(!engineBuilt)('translation on a multilingual model', () => {
  let fx: Fixtures;
  let srv: TestServer;
  let key: string;
  let client: OpenAI;
  let recording: Buffer;

  beforeAll(async () => {
    fx = makeFixtures();
    const model = join(fx.dir, 'micro-multilingual.bin');
    generateModel(model, { dims: { ...modelPresets.micro, nVocab: 51865 }, seed: 7 });
    srv = await startTestServer({ whisperModel: model });
    key = await srv.createKey({ services: ['transcription'] });
    client = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: key, maxRetries: 0 });
    recording = layoutWav(layout([{ silence: 3 }, { say: 'Bonjour tout le monde' }, { silence: 3 }]));
  });
  afterAll(async () => {
    await srv?.close();
    fx?.cleanup();
  });

  it('POST /v1/audio/translations answers OpenAI verbose_json with task translate and the skipped silence kept', async () => {
    const result = (await client.audio.translations.create({
      file: await toFile(recording, 'bonjour.wav'),
      model: 'whisper-1',
      response_format: 'verbose_json',
    })) as Json;
    expect(result.task).toBe('translate');
    expect(result.duration).toBeGreaterThan(6);
    expect(Array.isArray(result.segments)).toBe(true);
    for (const s of result.segments) expect(s.start).toBeGreaterThan(2.4); // the silence before the speech
  }, 120_000);

  it('POST /v1/audio/translations answers text and srt as OpenAI does', async () => {
    const text = await client.audio.translations.create({
      file: await toFile(recording, 'bonjour.wav'),
      model: 'whisper-1',
      response_format: 'text',
    });
    expect(typeof text).toBe('string');
    const res = await srv.as({ bearer: key })('/v1/audio/translations', {
      method: 'POST',
      body: audioForm(recording, 'bonjour.wav', { model: 'whisper-1', response_format: 'srt' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  }, 120_000);

  it('POST /api/v1/transcribe with task translate stores a translated transcript', async () => {
    const res = await srv.as({ bearer: key })('/api/v1/transcribe', {
      method: 'POST',
      body: audioForm(recording, 'bonjour.wav', { task: 'translate' }),
    });
    expect(res.status).toBe(200);
    const t = (await res.json()) as Json;
    expect(t.task).toBe('translate');
    expect(t.vad.skippedSeconds).toBeGreaterThan(4);
  }, 120_000);
});

describe.skipIf(!engineBuilt)('options on an English-only model', () => {
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

  const post = (path: string, fields: Record<string, string>) =>
    srv.as({ bearer: key })(path, { method: 'POST', body: audioForm(fx.speechBytes, 'speech.wav', fields) });

  it('refuses to translate with a 400 that names the English-only model, on every route', async () => {
    for (const [path, fields] of [
      ['/v1/audio/translations', { model: 'whisper-1' }],
      ['/api/v1/transcribe', { task: 'translate' }],
    ] as const) {
      const res = await post(path, fields);
      expect(res.status).toBe(400);
      const body = (await res.json()) as Json;
      expect(JSON.stringify(body.error)).toMatch(
        /micro\.bin is an English-only model, which cannot translate/,
      );
    }
    const list = (await (await srv.as({ bearer: key })('/api/v1/transcripts')).json()) as Json;
    expect(list.data).toEqual([]); // nothing was stored or queued
  });

  it('runs VAD by default and records the silence it skipped; vad=false turns it off', async () => {
    const on = (await (await post('/api/v1/transcribe', {})).json()) as Json;
    expect(on.task).toBe('transcribe');
    expect(on.vad.speechSeconds).toBeGreaterThan(2);
    expect(on.vad.skippedSeconds).toBeCloseTo(on.duration - on.vad.speechSeconds, 2);
    const off = (await (await post('/api/v1/transcribe', { vad: 'false' })).json()) as Json;
    expect(off.vad).toBeNull();
    const openai = (await (
      await post('/v1/audio/transcriptions', { model: 'whisper-1', response_format: 'json', vad: 'false' })
    ).json()) as Json;
    expect(Object.keys(openai)).toEqual(['text']);
  }, 120_000);

  it('a VAD threshold no frame reaches and a guard that drops every window both give an empty transcript', async () => {
    const deaf = (await (await post('/api/v1/transcribe', { vadThreshold: '0.999999' })).json()) as Json;
    expect(deaf.text).toBe('');
    expect(deaf.vad.speech).toEqual([]);
    const dropped = (await (
      await post('/api/v1/transcribe', {
        vad: 'false',
        noSpeechThreshold: '0',
        logprobThreshold: '0',
        temperatureIncrement: '0',
      })
    ).json()) as Json;
    expect(dropped.segments).toEqual([]);
  }, 120_000);

  it('answers a wrong option with a 400 naming it', async () => {
    for (const [fields, name] of [
      [{ vadThreshold: '2' }, 'vadThreshold'],
      [{ vad: 'maybe' }, 'vad'],
      [{ task: 'summarize' }, 'task'],
      [{ temperatureIncrement: 'hot' }, 'temperatureIncrement'],
    ] as const) {
      const res = await post('/api/v1/transcribe', fields);
      expect(res.status).toBe(400);
      expect(JSON.stringify(await res.json())).toContain(name);
    }
  });
});
