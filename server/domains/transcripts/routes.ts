/** The transcripts API (docs/transcription.md): list, detail, export, delete, retry, cancel, transcribe. */
import contentDisposition from 'content-disposition';
import { z } from 'zod';
import { defineRawRoute, defineRoute } from '../../deps.js';
import { reply } from '../../http/reply.js';
import { receiveMultipart } from '../uploads/service.js';
import { exportContentTypes, exportTranscript } from './exports.js';
import { presentTranscript } from './present-transcript.js';
import { ExportQuery, ListTranscriptsQuery, Transcript, TranscriptList, TranscriptParams } from './schema.js';
import { settledReply } from './settled-reply.js';

const who = { auth: ['session', 'key'] as const, service: 'transcription' as const };

export const transcribe = defineRawRoute({
  method: 'POST',
  path: '/api/v1/transcribe',
  ...who,
  requestContentType: 'multipart/form-data',
  response: Transcript,
  summary: 'Transcribe an audio file of up to 4 MiB and wait for the result',
  description:
    'multipart/form-data with the audio in field `file`; optional fields `language` (e.g. en) and `prompt`; `task` transcribe|translate (English text from any language; an English-only .en model answers 400); `vad` true|false (default true: only the speech voice activity detection finds is transcribed, and the transcript `vad` says how much silence was skipped) with `vadThreshold` (0.5), `vadMinSpeechMs` (250), `vadMinSilenceMs` (100), `vadSpeechPadMs` (30), `vadMaxSpeechS`; the Whisper guards against invented text `noSpeechThreshold` (0.6), `entropyThreshold` (2.4), `logprobThreshold` (-1), `temperatureIncrement` (0.2; 0 turns the fallback off). Stores the audio as an asset, runs it on the local Whisper model and answers the completed transcript (200). A failed one is answered with its `error` (422 for audio that cannot be decoded, 503 when no usable model is installed). Larger files: 413; use the chunked upload.',
  handler: async ({ workspace, ctx }, { transcripts }) =>
    settledReply(
      await transcripts.transcribeUpload(workspace.id, (space) => receiveMultipart(ctx.req, space)),
    ),
});

export const listTranscripts = defineRoute({
  method: 'GET',
  path: '/api/v1/transcripts',
  ...who,
  query: ListTranscriptsQuery,
  response: TranscriptList,
  tool: 'transcripts_list',
  summary: 'List transcripts, newest first (without segments and words)',
  description:
    '`status` (pending|processing|completed|failed), `limit` 1-200 (default 50), `cursor` from `nextCursor`.',
  handler: ({ workspace, query }, { transcripts }) => transcripts.list(workspace.id, query),
});

export const getTranscript = defineRoute({
  method: 'GET',
  path: '/api/v1/transcripts/:id',
  ...who,
  params: TranscriptParams,
  response: Transcript,
  tool: 'transcripts_get',
  summary: 'Get one transcript with its text, segments and words (start/end in seconds)',
  handler: ({ workspace, params }, { transcripts }) => transcripts.get(workspace.id, params.id),
});

export const exportTranscriptFile = defineRoute({
  method: 'GET',
  path: '/api/v1/transcripts/:id/export',
  ...who,
  params: TranscriptParams,
  query: ExportQuery,
  produces: 'application/x-subrip, text/vtt, text/plain, application/json',
  summary: 'Download a transcript as SubRip, WebVTT, plain text or JSON',
  description: '`format` srt (default), vtt, txt or json; answered as a download named after the transcript.',
  tool: 'transcripts_export',
  handler: async ({ workspace, params, query }, { transcripts }) => {
    const transcript = await transcripts.get(workspace.id, params.id);
    const filename = `${transcript.id}.${query.format}`;
    return reply.bytes(exportContentTypes[query.format], exportTranscript(transcript, query.format), {
      'Content-Disposition': contentDisposition(filename),
    });
  },
});

export const deleteTranscript = defineRoute({
  method: 'DELETE',
  path: '/api/v1/transcripts/:id',
  ...who,
  params: TranscriptParams,
  response: z.void(),
  status: 204,
  tool: 'transcripts_delete',
  summary: 'Delete a transcript and its audio asset (a running transcription is cancelled)',
  handler: async ({ workspace, params }, { transcripts }) => {
    await transcripts.remove(workspace.id, params.id);
    return reply.empty(204);
  },
});

export const retryTranscript = defineRoute({
  method: 'POST',
  path: '/api/v1/transcripts/:id/retry',
  ...who,
  params: TranscriptParams,
  response: Transcript,
  tool: 'transcripts_retry',
  summary: 'Queue a pending or failed transcript again (409 otherwise)',
  handler: async ({ workspace, params }, { transcripts }) =>
    presentTranscript(await transcripts.retry(workspace.id, params.id)),
});

export const cancelTranscript = defineRoute({
  method: 'POST',
  path: '/api/v1/transcripts/:id/cancel',
  ...who,
  params: TranscriptParams,
  response: Transcript,
  tool: 'transcripts_cancel',
  summary:
    'Cancel a pending or processing transcript: it becomes failed with error "cancelled" (409 otherwise)',
  handler: async ({ workspace, params }, { transcripts }) =>
    presentTranscript(await transcripts.cancel(workspace.id, params.id)),
});

export const transcriptRoutes = {
  transcribe,
  listTranscripts,
  getTranscript,
  exportTranscriptFile,
  deleteTranscript,
  retryTranscript,
  cancelTranscript,
};
