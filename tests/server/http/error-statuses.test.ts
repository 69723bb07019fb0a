// One error, one status: what the error boundary answers (REST, and through it WebSockets), an MCP tool's error, a
// failed transcript's reply (POST /transcribe, transcripts_create) and the OpenAI-compatible endpoint all agree,
// and an error that carries a 5xx of its own (a missing model) keeps it instead of becoming a bare 500.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelError } from '../../../server/domains/models/model-errors.js';
import type { TranscriptRecord } from '../../../server/domains/transcripts/schema.js';
import { settledReply } from '../../../server/domains/transcripts/settled-reply.js';
import { AudioDecodeError, EngineError } from '../../../server/engines/whisper/errors.js';
import { InvalidModelError } from '../../../server/engines/whisper/model-header.js';
import { errorBoundary } from '../../../server/http/error-boundary.js';
import { HttpError } from '../../../server/http/errors.js';
import { StorageFailure } from '../../../server/store/errors.js';
import { toolError } from '../../../server/surfaces/mcp/tools/tool-results.js';
import type { OpenAiRequest } from '../../../server/surfaces/openai/format.js';
import { openAiReply } from '../../../server/surfaces/openai/transcribe.js';
import { lineLog } from '../../helpers/line-log.js';

let thrown: unknown;
let server: Server;
let url: string;
const recorded = lineLog();

beforeAll(async () => {
  const app = new Koa();
  app.silent = true;
  app.use(errorBoundary(recorded.log));
  app.use(() => {
    throw thrown;
  });
  server = createServer(app.callback()).listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
});
afterAll(() => server.close());

async function boundary(error: unknown) {
  thrown = error;
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const failedTranscript = (error: string) =>
  ({ id: 'trn_1', status: 'failed', error, createdAt: '', updatedAt: '' }) as unknown as TranscriptRecord;

function transcriptStatus(cause: unknown): number {
  const answer = settledReply({ transcript: failedTranscript(String(cause)), cause });
  return (answer as { status: number }).status;
}

function openAiStatus(cause: unknown): number {
  try {
    openAiReply({ transcript: failedTranscript(String(cause)), cause }, {} as OpenAiRequest);
  } catch (error) {
    return (error as HttpError).status;
  }
  throw new Error('a failed transcript did not fail the OpenAI answer');
}

const toolStatus = (error: unknown) =>
  toolError(error, recorded.log, 'transcripts_create').structuredContent?.httpStatus as number;

const eio = Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
const cases: Array<[string, unknown, number]> = [
  ['no Whisper model set up', new EngineError('model_missing', 'No Whisper model is set up'), 503],
  ['the worker not built', new EngineError('not_built', 'The Whisper worker is not built'), 503],
  ['a language whisper.cpp does not know', new EngineError('bad_language', 'unknown language "xx"'), 400],
  ['audio that does not decode', new AudioDecodeError('could not decode audio: no audio stream'), 422],
  ['a model download the source failed', new ModelError('download_failed', 'model download failed'), 502],
  ['a file that is not a model', new InvalidModelError('model_invalid', 'not a ggml Whisper model'), 400],
  ['a storage I/O error', new StorageFailure(eio), 503],
  ['an unexpected error', new Error('a bug'), 500],
];

describe('one error, one status', () => {
  it('an engine error carrying 503 answers 503 with its message, not a bare 500', async () => {
    const { status, body } = await boundary(new EngineError('model_missing', 'No Whisper model is set up'));
    expect(status).toBe(503);
    expect(body).toEqual({ error: 'No Whisper model is set up' });
  });

  it.each(cases)(
    '%s: the boundary, MCP, a failed transcript and the OpenAI endpoint agree',
    async (_, error, status) => {
      expect((await boundary(error)).status).toBe(status);
      expect(toolStatus(error)).toBe(status);
      expect(transcriptStatus(error)).toBe(status);
      expect(openAiStatus(error)).toBe(status);
    },
  );

  it('hides an unexpected error behind "Internal server error" in every body', async () => {
    const { body } = await boundary(new Error('secret detail at /home/me'));
    expect(body).toEqual({ error: 'Internal server error' });
    expect(JSON.stringify(toolError(new Error('secret detail'), recorded.log, 'x'))).not.toContain('secret');
  });

  it('keeps details and headers of the one error shape, and names each error by a code', async () => {
    const limited = new HttpError(429, 'Rate limit exceeded', { retryIn: 3 }, { 'Retry-After': '3' });
    thrown = limited;
    const res = await fetch(url);
    expect(res.headers.get('retry-after')).toBe('3');
    expect(await res.json()).toEqual({ error: 'Rate limit exceeded', retryIn: 3 });
    expect(limited.code).toBe('rate_limited');
    expect(new EngineError('model_missing', 'x').code).toBe('model_missing');
  });

  it('a failed transcript whose cause is not known here (cancelled, or failed on another node) stays 422', () => {
    expect((settledReply({ transcript: failedTranscript('cancelled') }) as { status: number }).status).toBe(
      422,
    );
  });
});
