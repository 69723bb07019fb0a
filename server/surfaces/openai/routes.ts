/** OpenAI-compatible transcription: point an OpenAI client at `<origin>/v1` with a Folio key (docs/agents.md). */

import { presentTranscript } from '../../domains/transcripts/present-transcript.js';
import { defineRawRoute } from '../../http/define-route.js';
import { HttpError } from '../../http/errors.js';
import { receiveMultipart } from '../../http/receive-multipart.js';
import { reply } from '../../http/reply.js';
import { formatOpenAi } from './format.js';
import { transcribeOpenAi } from './transcribe.js';

export const openAiTranscription = defineRawRoute({
  method: 'POST',
  path: '/v1/audio/transcriptions',
  auth: ['key', 'session'],
  service: 'transcription',
  requestContentType: 'multipart/form-data',
  produces: 'application/json, text/plain, text/vtt',
  summary: 'OpenAI-compatible transcription on the local Whisper model',
  description:
    'Form fields as OpenAI: `file`, `model` (any value means the active local model, unless it names an installed one such as tiny.en), `language`, `prompt`, `response_format` json|text|srt|verbose_json|vtt, `timestamp_granularities[]` word|segment (verbose_json only, else 400). json answers `{ text }`; verbose_json `{ task, language, duration, text, segments, words? }`. The audio and transcript are kept in the workspace. Errors are `{ error }`.',
  handler: async ({ workspace, ctx }, { transcripts, models, store, config }) => {
    const fields: Array<[string, string]> = [];
    const received = await receiveMultipart(ctx.req, {
      tmpDir: store.tmpDir,
      maxBytes: config.limits.uploadBytes,
      onField: (name, value) => void fields.push([name, value]),
    });
    const { settled, request } = await transcribeOpenAi(
      { transcripts, models },
      workspace.id,
      received,
      fields,
    );
    const { transcript, cause } = settled;
    if (transcript.status !== 'completed') {
      const status = (cause as { status?: number } | undefined)?.status;
      throw new HttpError(
        status && status >= 400 && status < 600 ? status : 422,
        transcript.error ?? 'transcription failed',
        {
          transcriptId: transcript.id,
        },
      );
    }
    const out = formatOpenAi(presentTranscript(transcript), request);
    return reply.bytes(out.contentType, out.body, { 'X-Folio-Transcript-Id': transcript.id });
  },
});

export const openAiRoutes = { openAiTranscription };
