/**
 * How a transcript is made beyond its language and prompt: the task (transcribe, or translate into English), voice
 * activity detection (on unless turned off) and Whisper's guards against invented text (docs/transcription.md).
 * The same names come as JSON (MCP) or as form fields (POST /api/v1/transcribe, the OpenAI-compatible routes).
 */
import { basename } from 'node:path';
import { z } from 'zod';
import { readModelHeader } from '../../engines/whisper/model-header.js';
import type { GuardOptions, TranscribeOptions, VadOptions } from '../../engines/whisper/types.js';
import { badRequest } from '../../http/errors.js';

export const TASKS = ['transcribe', 'translate'] as const;

export const TranscriptionOptionFields = {
  task: z
    .enum(TASKS, 'task must be transcribe or translate')
    .optional()
    .describe(
      'translate: English text from speech in any language (multilingual models only; .en models: 400)',
    ),
  vad: z
    .boolean()
    .optional()
    .describe('Voice activity detection: only the speech Silero VAD finds is transcribed (default true)'),
  vadThreshold: z.number().min(0).max(1).optional().describe('Speech probability of a frame (default 0.5)'),
  vadMinSpeechMs: z
    .number()
    .int()
    .min(0)
    .max(60_000)
    .optional()
    .describe('Shorter speech is dropped (default 250)'),
  vadMinSilenceMs: z
    .number()
    .int()
    .min(0)
    .max(60_000)
    .optional()
    .describe('Silence that ends speech (default 100)'),
  vadSpeechPadMs: z.number().int().min(0).max(10_000).optional().describe('Kept around speech (default 30)'),
  vadMaxSpeechS: z.number().positive().max(3600).optional().describe('Longer speech is split (default none)'),
  noSpeechThreshold: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe(
      'A window more likely silent than this, with a low log-probability, gives no text (default 0.6)',
    ),
  entropyThreshold: z
    .number()
    .min(0)
    .max(10)
    .optional()
    .describe('Text that repeats (entropy below this) is decoded again hotter (default 2.4)'),
  logprobThreshold: z
    .number()
    .min(-20)
    .max(0)
    .optional()
    .describe('Text with a mean token log-probability below this is decoded again hotter (default -1)'),
  temperatureIncrement: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe('How much hotter each new try is, up to 1.0; 0: no fallback (default 0.2)'),
};
export const TranscriptionOptions = z.object(TranscriptionOptionFields);
export type TranscriptionOptions = z.infer<typeof TranscriptionOptions>;

/** What a transcript record keeps of them: what differs from the defaults. */
export type StoredOptions = { task?: 'translate'; vad?: VadOptions | false; guards?: GuardOptions };

const defined = <T extends object>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

export function storedOptions(o: TranscriptionOptions): StoredOptions {
  const vad = defined({
    threshold: o.vadThreshold,
    minSpeechMs: o.vadMinSpeechMs,
    minSilenceMs: o.vadMinSilenceMs,
    speechPadMs: o.vadSpeechPadMs,
    maxSpeechS: o.vadMaxSpeechS,
  });
  const guards = defined({
    noSpeech: o.noSpeechThreshold,
    entropy: o.entropyThreshold,
    logprob: o.logprobThreshold,
    temperatureInc: o.temperatureIncrement,
  });
  return {
    ...(o.task === 'translate' ? { task: 'translate' as const } : {}),
    // vad: true is kept (as {}), so that it wins over a saved default of off (withDefaults)
    ...(o.vad === false ? { vad: false as const } : o.vad || Object.keys(vad).length ? { vad } : {}),
    ...(Object.keys(guards).length ? { guards } : {}),
  };
}

/**
 * The request's options over the owner's saved defaults (Settings): the request's VAD choice, when it made one,
 * wins whole; guards field by field.
 */
export function withDefaults(request: StoredOptions, saved: StoredOptions | undefined): StoredOptions {
  if (!saved) return request;
  const vad = request.vad ?? saved.vad;
  const guards = { ...saved.guards, ...request.guards };
  return {
    ...(request.task ? { task: request.task } : {}),
    ...(vad !== undefined ? { vad } : {}),
    ...(Object.keys(guards).length ? { guards } : {}),
  };
}

/** Form fields (strings) by the same names: "true"/"false" and numbers; a wrong one is a 400 naming it. */
export function optionsFromForm(fields: Record<string, string | undefined>): StoredOptions {
  const raw: Record<string, unknown> = {};
  for (const name of Object.keys(TranscriptionOptionFields)) {
    const value = fields[name]?.trim();
    if (!value) continue;
    if (name === 'task') raw[name] = value;
    else if (name === 'vad') raw[name] = value === 'true' ? true : value === 'false' ? false : value;
    else raw[name] = Number.isFinite(Number(value)) ? Number(value) : value;
  }
  const parsed = TranscriptionOptions.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const param = String(issue?.path[0] ?? '');
    throw badRequest(`${param}: ${issue?.message ?? 'invalid'}`, { param });
  }
  return storedOptions(parsed.data);
}

/** The engine's options for a stored transcript: VAD on (whisper-cli's thresholds) unless it was turned off. */
export function engineOptions(
  stored: StoredOptions | undefined,
): Pick<TranscribeOptions, 'task' | 'vad' | 'guards'> {
  return {
    task: stored?.task ?? 'transcribe',
    ...(stored?.vad === false ? {} : { vad: stored?.vad ?? {} }),
    ...(stored?.guards ? { guards: stored.guards } : {}),
  };
}

/** Whisper's multilingual models have 51865 tokens or more; the English-only (.en) ones 51864. */
const MULTILINGUAL_VOCAB = 51865;

/** Translation needs a multilingual model: an English-only one is a 400 that says so. */
export async function assertCanTranslate(options: StoredOptions, modelPath: string | undefined) {
  if (options.task !== 'translate' || !modelPath) return;
  const header = await readModelHeader(modelPath).catch(() => undefined);
  if (header && header.nVocab < MULTILINGUAL_VOCAB)
    throw badRequest(
      `${basename(modelPath)} is an English-only model, which cannot translate: install or choose a multilingual one (tiny, base, small, medium, large-v3)`,
      { param: 'task' },
    );
}
