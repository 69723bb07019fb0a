import { createReadStream } from 'node:fs';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import {
  audioForm,
  engineBuilt,
  type Fixtures,
  type Json,
  makeFixtures,
} from '../../../helpers/transcription.js';

describe.skipIf(!engineBuilt)('OpenAI-compatible POST /v1/audio/transcriptions', () => {
  let fx: Fixtures;
  let srv: TestServer;
  let key: string;
  let client: OpenAI;

  beforeAll(async () => {
    fx = makeFixtures();
    srv = await startTestServer({ whisperModel: fx.model });
    key = await srv.createKey({ services: ['transcription'] });
    client = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: key, maxRetries: 0 });
  });
  afterAll(async () => {
    await srv?.close();
    fx?.cleanup();
  });

  it('transcribes with the openai client: json gives { text }', async () => {
    const result = await client.audio.transcriptions.create({
      file: createReadStream(fx.speech),
      model: 'whisper-1',
    });
    expect(Object.keys(result)).toEqual(['text']);
    expect(typeof result.text).toBe('string');
  });

  it('verbose_json with word and segment granularities has timed segments and words', async () => {
    const result = (await client.audio.transcriptions.create({
      file: await toFile(fx.speechBytes, 'speech.wav'),
      model: 'gpt-4o-transcribe',
      language: 'en',
      prompt: 'Folio',
      response_format: 'verbose_json',
      timestamp_granularities: ['word', 'segment'],
    })) as Json;
    expect(result).toMatchObject({ task: 'transcribe', language: 'en' });
    expect(result.duration).toBeGreaterThan(3);
    expect(result.segments.length).toBeGreaterThan(0);
    for (const s of result.segments) {
      expect(Object.keys(s)).toEqual(expect.arrayContaining(['id', 'start', 'end', 'text']));
      expect(s.end).toBeGreaterThanOrEqual(s.start);
    }
    expect(result.words.length).toBeGreaterThan(0);
    for (const w of result.words) {
      expect(Object.keys(w).sort()).toEqual(['end', 'start', 'word']);
      expect(w.end).toBeGreaterThanOrEqual(w.start);
      expect(w.end).toBeLessThanOrEqual(result.duration + 0.01);
    }
    const segmentsOnly = (await client.audio.transcriptions.create({
      file: await toFile(fx.speechBytes, 'speech.wav'),
      model: 'whisper-1',
      response_format: 'verbose_json',
    })) as Json;
    expect(segmentsOnly.words).toBeUndefined();
  });

  it('answers text, srt and vtt as text', async () => {
    const file = () => toFile(fx.speechBytes, 'speech.wav');
    const text = await client.audio.transcriptions.create({
      file: await file(),
      model: 'whisper-1',
      response_format: 'text',
    });
    expect(typeof text).toBe('string');
    const srt = await client.audio.transcriptions.create({
      file: await file(),
      model: 'whisper-1',
      response_format: 'srt',
    });
    expect(srt).toMatch(/^1\n\d\d:\d\d:\d\d,\d{3} --> /);
    const vtt = await client.audio.transcriptions.create({
      file: await file(),
      model: 'whisper-1',
      response_format: 'vtt',
    });
    expect(vtt).toMatch(/^WEBVTT\n/);
  });

  it('refuses word timestamps without verbose_json with a 400 in our error shape, like OpenAI', async () => {
    const err = await client.audio.transcriptions
      .create({
        file: await toFile(fx.speechBytes, 'speech.wav'),
        model: 'whisper-1',
        timestamp_granularities: ['word'],
      })
      .catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.status).toBe(400);
    // the SDK unwraps our `{ error }` body: its `error` is our message
    expect(err.error).toMatch(/verbose_json/);
    const badFormat = await srv.as({ bearer: key })('/v1/audio/transcriptions', {
      method: 'POST',
      body: audioForm(fx.speechBytes, 'a.wav', { model: 'x', response_format: 'xml' }),
    });
    expect(badFormat.status).toBe(400);
  });

  it('needs a key with transcription: 401 without, 403 naming the service otherwise', async () => {
    const anonymous = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: 'sk-not-a-folio-key', maxRetries: 0 });
    const e401 = await anonymous.audio.transcriptions
      .create({ file: await toFile(fx.speechBytes, 'a.wav'), model: 'whisper-1' })
      .catch((e) => e);
    expect(e401.status).toBe(401);
    const other = new OpenAI({
      baseURL: `${srv.url}/v1`,
      apiKey: await srv.createKey({ services: ['assets'] }),
      maxRetries: 0,
    });
    const e403 = await other.audio.transcriptions
      .create({ file: await toFile(fx.speechBytes, 'a.wav'), model: 'whisper-1' })
      .catch((e) => e);
    expect(e403.status).toBe(403);
    expect(e403.error).toMatch(/transcription/);
  });
});
