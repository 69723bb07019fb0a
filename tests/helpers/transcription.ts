/** Shared set-up for transcription API tests: a generated random-weight model, espeak-ng speech, helpers. */

import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { defaultWorkerPath } from '../../server/engines/whisper/whisper-engine.js';
import { generateModel } from './generate-model.js';
import type { TestServer } from './server.js';
import { padTo, speak } from './speech.js';

export const engineBuilt = existsSync(defaultWorkerPath);
if (!engineBuilt)
  console.warn(
    `skipping transcription API tests: ${defaultWorkerPath} not built (run npm run build:whisper)`,
  );

export type Fixtures = { dir: string; model: string; speech: string; speechBytes: Buffer; cleanup(): void };

/** The micro model (8 MB, fast) and a ~4 s spoken clip as 16 kHz mono WAV. */
export function makeFixtures(preset: 'micro' | 'tiny.en' = 'micro'): Fixtures {
  const dir = mkdtempSync(join(tmpdir(), 'folio-tx-'));
  const model = join(dir, `${preset}.bin`);
  generateModel(model, { preset, seed: 7 });
  const raw = speak(dir, 'speech', 'Hello world. This is a test of the Folio transcription engine.');
  const speech = padTo(raw, join(dir, 'speech16k.wav'), 4);
  return {
    dir,
    model,
    speech,
    speechBytes: readFileSync(speech),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export function audioForm(bytes: Buffer, name = 'speech.wav', fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'audio/wav' }), name);
  return form;
}

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
export type Json = Record<string, any>;

/** Queues a transcript without waiting for it: a one-part chunked upload (key with transcription). */
/**
 * Queues a transcript through a one-part chunked upload, with voice activity detection and the temperature fallback
 * off unless `options` say otherwise: the recordings here are speech padded with silence to make a job long, which
 * VAD would skip, and a random-weight model fails every window's guards, so the fallback decodes each one six times.
 */
export async function queueTranscript(
  srv: TestServer,
  bearer: string,
  bytes: Buffer,
  options: Json = { vad: false, temperatureIncrement: 0 },
): Promise<Json> {
  const api = srv.as({ bearer });
  const begun = await api('/api/v1/uploads/chunked', {
    method: 'POST',
    body: JSON.stringify({
      filename: 'clip.wav',
      contentType: 'audio/wav',
      size: bytes.length,
      partSize: 64 << 20,
      ...options,
    }),
  });
  expect(begun.status).toBe(201);
  const { uploadId } = (await begun.json()) as Json;
  const put = await api(`/api/v1/uploads/chunked/${uploadId}/parts/0`, {
    method: 'PUT',
    body: new Uint8Array(bytes),
  });
  expect(put.status).toBe(200);
  const done = await api(`/api/v1/uploads/chunked/${uploadId}/complete`, { method: 'POST' });
  expect(done.status).toBe(200);
  return ((await done.json()) as Json).transcript;
}

export async function waitForStatus(
  srv: TestServer,
  bearer: string,
  id: string,
  statuses: string[],
  timeoutMs = 60_000,
): Promise<Json> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await srv.as({ bearer })(`/api/v1/transcripts/${id}`);
    const body = (await res.json()) as Json;
    if (statuses.includes(body.status)) return body;
    if (Date.now() > deadline) throw new Error(`transcript ${id} still ${body.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Structure and timestamps only: the random-weight model's text means nothing. */
export function expectWellFormedTranscript(t: Json): void {
  expect(t.status).toBe('completed');
  expect(t.progress).toBe(100);
  expect(t.duration).toBeGreaterThan(0);
  expect(typeof t.text).toBe('string');
  expect(t.segments.length).toBeGreaterThan(0);
  expect(t.words.length).toBeGreaterThan(0);
  let previous = 0;
  for (const s of t.segments) {
    expect(s.start).toBeGreaterThanOrEqual(0);
    expect(s.end).toBeGreaterThanOrEqual(s.start);
    expect(s.end).toBeLessThanOrEqual(t.duration + 0.01);
  }
  for (const w of t.words) {
    expect(typeof w.word).toBe('string');
    expect(w.end).toBeGreaterThanOrEqual(w.start);
    expect(w.start).toBeGreaterThanOrEqual(previous - 0.01);
    expect(w.end).toBeLessThanOrEqual(t.duration + 0.01);
    previous = w.start;
  }
}
