/**
 * OpenAI-compatible transcription and translation: point an OpenAI client at `<origin>/v1` with a Folio key
 * (docs/agents.md).
 */

import { defineRawRoute } from '../../deps.js';
import { receiveMultipart } from '../../domains/uploads/service.js';
import { openAiReply, transcribeOpenAi } from './transcribe.js';

export const openAiTranscription = defineRawRoute({
  method: 'POST',
  path: '/v1/audio/transcriptions',
  auth: ['key', 'session'],
  service: 'transcription',
  requestContentType: 'multipart/form-data',
  produces: 'application/json, text/plain, text/vtt',
  summary: 'OpenAI-compatible transcription on the local Whisper model',
  description:
    'Form fields as OpenAI: `file`, `model` (any value means the active local model, unless it names an installed one such as tiny.en), `language`, `prompt`, `response_format` json|text|srt|verbose_json|vtt, `timestamp_granularities[]` word|segment (verbose_json only, else 400). json answers `{ text }`; verbose_json `{ task, language, duration, text, segments, words? }`. Folio fields may come too: `task` transcribe|translate, `vad` true|false (default true: only the speech voice activity detection finds is transcribed), `vadThreshold`, `vadMinSpeechMs`, `vadMinSilenceMs`, `vadSpeechPadMs`, `vadMaxSpeechS`, `noSpeechThreshold`, `entropyThreshold`, `logprobThreshold`, `temperatureIncrement`. The audio and transcript are kept in the workspace. Errors are `{ error }`.',
  handler: async ({ workspace, ctx }, deps) => {
    const { settled, request } = await transcribeOpenAi(deps, workspace.id, (options) =>
      receiveMultipart(ctx.req, options),
    );
    return openAiReply(settled, request);
  },
});

export const openAiTranslation = defineRawRoute({
  method: 'POST',
  path: '/v1/audio/translations',
  auth: ['key', 'session'],
  service: 'transcription',
  requestContentType: 'multipart/form-data',
  produces: 'application/json, text/plain, text/vtt',
  summary: 'OpenAI-compatible translation into English on the local Whisper model',
  description:
    'Form fields as OpenAI: `file`, `model` (as for transcriptions), `prompt` (in English), `response_format` json|text|srt|verbose_json|vtt. Speech in any language becomes English text; `language` in verbose_json is the language spoken. An English-only model (.en) cannot translate: 400 saying so. The Folio `vad` and threshold fields work as for transcriptions. Errors are `{ error }`.',
  handler: async ({ workspace, ctx }, deps) => {
    const { settled, request } = await transcribeOpenAi(
      deps,
      workspace.id,
      (options) => receiveMultipart(ctx.req, options),
      'translate',
    );
    return openAiReply(settled, request);
  },
});

export const openAiRoutes = { openAiTranscription, openAiTranslation };
