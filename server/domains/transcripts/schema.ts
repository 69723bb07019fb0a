/** Transcript records, their JSON shapes and the request schemas of the transcription routes (docs/transcription.md). */
import { z } from 'zod';
import type { VadSummary } from '../../engines/whisper/types.js';
import { PageQuery } from '../../http/paging.js';
import type { StoredOptions } from './options.js';

// The transcription options are wire shapes too: other domains take them in their own bodies (chunked begin, settings).
export { type StoredOptions, storedOptions, TranscriptionOptionFields } from './options.js';

export const TRANSCRIPT_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export const TranscriptStatus = z.enum(TRANSCRIPT_STATUSES);
export type TranscriptStatus = z.infer<typeof TranscriptStatus>;

export const TranscriptWord = z.object({
  word: z.string(),
  start: z.number().describe('Seconds from the start of the audio'),
  end: z.number(),
  probability: z.number().optional(),
});
export type TranscriptWord = z.infer<typeof TranscriptWord>;

export const TranscriptSegment = z.object({
  id: z.number().int(),
  start: z.number(),
  end: z.number(),
  text: z.string(),
  speaker: z
    .string()
    .optional()
    .describe(
      'Who spoke it, on a recording with one voice per channel: "Speaker 1" (left channel) or "Speaker 2" (right); absent on mono recordings and where the channels do not tell',
    ),
});
export type TranscriptSegment = z.infer<typeof TranscriptSegment>;

/** Where the audio came from; realtime transcripts are stored completed. */
export type TranscriptSource = 'transcribe' | 'chunked' | 'openai' | 'realtime' | 'watched';

/** What is stored, per workspace, in the `transcripts` collection. */
export type TranscriptRecord = {
  id: string;
  status: TranscriptStatus;
  progress: number;
  error?: string | null;
  audioAssetId: string;
  source: TranscriptSource;
  /** Asked for at creation; `language` below is what the engine reports. */
  requestedLanguage?: string;
  prompt?: string;
  /** Task, voice activity detection and guards asked for, where they differ from the defaults (options.ts). */
  options?: StoredOptions;
  /** An installed model asked for by name (OpenAI `model`); else the active model runs it. */
  modelPath?: string;
  language?: string;
  duration?: number;
  text?: string;
  segments?: TranscriptSegment[];
  words?: TranscriptWord[];
  /** What voice activity detection found; absent when it was off (or before issue #35). */
  vad?: VadSummary;
  model: string | null;
  /** The device that made it ("CPU: 8 threads, AVX2"); absent on transcripts from before issue #23. */
  device?: string | null;
  createdAt: string;
  updatedAt: string;
  completedAt?: string;
  /** While processing: the node running it, and until when it holds the job unless it renews (queue.ts). */
  node?: string | null;
  leaseUntil?: string | null;
};

const transcriptFields = {
  id: z.string(),
  status: TranscriptStatus,
  progress: z.number().int().min(0).max(100),
  error: z.string().optional().describe('Why it failed ("cancelled" when cancelled)'),
  audioAssetId: z.string(),
  language: z.string().optional(),
  duration: z.number().optional().describe('Seconds'),
  text: z.string().optional(),
  task: z.enum(['transcribe', 'translate']).describe('translate: the text is English, whatever was spoken'),
  vad: z
    .object({
      speechSeconds: z.number().describe('Speech found by voice activity detection'),
      skippedSeconds: z.number().describe('Silence left out, never sent to Whisper'),
      speech: z
        .array(z.object({ start: z.number(), end: z.number() }))
        .describe('Each stretch of speech, in seconds from the start of the recording'),
    })
    .nullable()
    .describe('What voice activity detection found; null when it was off'),
  model: z.string().nullable().describe('The Whisper model file that ran (or will run) it'),
  device: z
    .string()
    .nullable()
    .describe('The device that made it, e.g. "GPU: NVIDIA GeForce RTX 4070 (CUDA)"; null until it completes'),
  createdAt: z.string(),
  updatedAt: z.string(),
  completedAt: z.string().optional(),
};

export const TranscriptSummary = z.object(transcriptFields);
export type TranscriptSummary = z.infer<typeof TranscriptSummary>;
export const Transcript = z.object({
  ...transcriptFields,
  segments: z.array(TranscriptSegment),
  words: z.array(TranscriptWord),
});
export type Transcript = z.infer<typeof Transcript>;
export const TranscriptList = z.object({
  data: z.array(TranscriptSummary),
  nextCursor: z.string().nullable(),
});

export const TranscriptParams = z.object({ id: z.string().min(1).max(64) });

export const ListTranscriptsQuery = z.object({
  status: TranscriptStatus.optional(),
  ...PageQuery,
});
export type ListTranscriptsQuery = z.infer<typeof ListTranscriptsQuery>;

export const EXPORT_FORMATS = ['srt', 'vtt', 'txt', 'json'] as const;
export const ExportQuery = z.object({
  format: z.enum(EXPORT_FORMATS, { message: 'format must be one of srt, vtt, txt, json' }).default('srt'),
});
