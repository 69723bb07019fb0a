/** OpenAI `POST /v1/audio/transcriptions` and `/translations` form fields and response bodies (docs/agents.md). Pure. */

import { toSrt, toVtt } from '../../domains/transcripts/exports.js';
import { optionsFromForm, type StoredOptions } from '../../domains/transcripts/options.js';
import type { Transcript } from '../../domains/transcripts/schema.js';
import { badRequest } from '../../http/errors.js';

export const RESPONSE_FORMATS = ['json', 'text', 'srt', 'verbose_json', 'vtt'] as const;
export type ResponseFormat = (typeof RESPONSE_FORMATS)[number];
type Granularity = 'word' | 'segment';

export interface OpenAiRequest {
  model?: string;
  language?: string;
  prompt?: string;
  responseFormat: ResponseFormat;
  granularities: Granularity[];
  /** Folio's own fields beside OpenAI's (task, vad, thresholds: transcripts/options.ts). */
  options: StoredOptions;
}

/**
 * Fields in arrival order (repeats kept): `timestamp_granularities[]` may come several times. The translations
 * route has no `language` (the text is English) and its task is translate whatever `task` says.
 */
export function parseOpenAiFields(
  fields: Array<[string, string]>,
  task: 'transcribe' | 'translate' = 'transcribe',
): OpenAiRequest {
  const one = (name: string) => fields.findLast(([n]) => n === name)?.[1]?.trim() || undefined;
  const responseFormat = (one('response_format') ?? 'json') as ResponseFormat;
  if (!RESPONSE_FORMATS.includes(responseFormat))
    throw badRequest(`response_format must be one of ${RESPONSE_FORMATS.join(', ')}`, {
      param: 'response_format',
    });
  const granularities = fields
    .filter(([n]) => n === 'timestamp_granularities[]' || n === 'timestamp_granularities')
    .flatMap(([, v]) => v.split(',').map((s) => s.trim()))
    .filter(Boolean);
  for (const g of granularities)
    if (g !== 'word' && g !== 'segment')
      throw badRequest(`timestamp_granularities[] must be word or segment; got "${g}"`, {
        param: 'timestamp_granularities',
      });
  // OpenAI answers 400 for this too: only verbose_json carries timestamps
  if (granularities.length && responseFormat !== 'verbose_json')
    throw badRequest('timestamp_granularities[] requires response_format verbose_json', {
      param: 'timestamp_granularities',
    });
  const language = task === 'translate' ? undefined : one('language');
  if (language && !/^[a-z]{2,3}(-[A-Za-z]{2,4})?$/.test(language))
    throw badRequest('language must be an ISO-639-1 code such as en', { param: 'language' });
  return {
    model: one('model'),
    language,
    prompt: one('prompt'),
    responseFormat,
    granularities: granularities as Granularity[],
    options: { ...optionsFromForm(Object.fromEntries(fields)), ...(task === 'translate' ? { task } : {}) },
  };
}

export type OpenAiBody = { contentType: string; body: string };

export function formatOpenAi(transcript: Transcript, request: OpenAiRequest): OpenAiBody {
  const json = (value: unknown) => ({ contentType: 'application/json', body: JSON.stringify(value) });
  const text = transcript.text ?? '';
  switch (request.responseFormat) {
    case 'json':
      return json({ text });
    case 'text':
      return { contentType: 'text/plain; charset=utf-8', body: `${text}\n` };
    case 'srt':
      return { contentType: 'text/plain; charset=utf-8', body: toSrt(transcript.segments) };
    case 'vtt':
      return { contentType: 'text/vtt; charset=utf-8', body: toVtt(transcript.segments) };
    case 'verbose_json':
      return json(verboseJson(transcript, request));
  }
}

function verboseJson(transcript: Transcript, request: OpenAiRequest) {
  const words = request.granularities.includes('word');
  return {
    task: transcript.task,
    language: transcript.language ?? 'en',
    duration: transcript.duration ?? 0,
    text: transcript.text ?? '',
    segments: transcript.segments.map((s) => ({
      id: s.id,
      seek: 0,
      start: s.start,
      end: s.end,
      text: s.text,
      tokens: [],
      temperature: 0,
      avg_logprob: 0,
      compression_ratio: 0,
      no_speech_prob: 0,
    })),
    ...(words ? { words: transcript.words.map(({ word, start, end }) => ({ word, start, end })) } : {}),
  };
}
