/** Chunked upload records and request/response schemas (docs/transcription.md#chunked-upload). */
import { z } from 'zod';
import { Asset } from '../../assets/schema.js';
import { type StoredOptions, Transcript, TranscriptionOptionFields } from '../../transcripts/schema.js';

export const DEFAULT_PART_SIZE = 8 << 20;
export const MIN_PART_SIZE = 1 << 10;
export const MAX_PART_SIZE = 64 << 20;
export const MAX_PARTS = 10_000;
export const DEFAULT_EXPIRES_IN = 24 * 3600;

export type PartRecord = { size: number; sha256: string; receivedAt: string };

export type ChunkedUploadRecord = {
  id: string;
  filename: string;
  contentType: string;
  size: number;
  sha256?: string;
  partSize: number;
  partCount: number;
  language?: string;
  prompt?: string;
  /** The transcript's task, VAD and guards (transcripts/options.ts), where they differ from the defaults. */
  options?: StoredOptions;
  /** `completing`: a complete is under way (until `claimUntil`); clients see it as open. */
  status: 'open' | 'completing' | 'completed' | 'aborted' | 'expired';
  parts: Record<string, PartRecord>;
  /** Bumped by every change of `parts` or `status`, so a write from another node cannot overwrite one unseen. */
  rev?: number;
  claimUntil?: string | null;
  result?: { transcriptId: string; assetId: string };
  /** Set for uploads another domain completes (`sync-pack`): what it needs at complete, and what it answered. */
  purpose?: string;
  manifest?: unknown;
  outcome?: Record<string, unknown>;
  createdAt: string;
  expiresAt: string;
};

const Sha256 = z
  .string()
  .regex(/^[0-9a-fA-F]{64}$/, 'sha256 must be 64 hex characters')
  .transform((s) => s.toLowerCase());

export const BeginChunkedBody = z.strictObject({
  filename: z.string().trim().min(1, 'filename must not be empty').max(255),
  contentType: z.string().trim().min(1).max(200),
  size: z.number().int().min(1, 'size must be at least 1 byte'),
  sha256: Sha256.optional(),
  partSize: z
    .number()
    .int()
    .min(MIN_PART_SIZE, `partSize must be at least ${MIN_PART_SIZE} bytes`)
    .max(MAX_PART_SIZE, `partSize must be at most ${MAX_PART_SIZE} bytes`)
    .optional(),
  expiresIn: z
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 3600)
    .optional()
    .describe('Seconds (default 86400, max 7 days)'),
  language: z.string().trim().min(2).max(16).optional(),
  prompt: z.string().max(2000).optional(),
  ...TranscriptionOptionFields,
});
export type BeginChunkedBody = z.infer<typeof BeginChunkedBody>;

export const ChunkedUpload = z.object({
  uploadId: z.string(),
  partSize: z.number().int(),
  partCount: z.number().int(),
  size: z.number().int(),
  expiresAt: z.string(),
});

export const ChunkedUploadStatus = ChunkedUpload.extend({
  status: z.enum(['open', 'completed', 'aborted', 'expired']),
  receivedParts: z.array(z.object({ index: z.number().int(), size: z.number().int(), sha256: z.string() })),
  missingParts: z.array(z.number().int()),
  transcriptId: z.string().optional(),
  assetId: z.string().optional(),
});

export const ReceivedPart = z.object({ index: z.number().int(), size: z.number().int(), sha256: z.string() });

export const CompletedUpload = z.object({ transcript: Transcript, asset: Asset });

export const UploadParams = z.object({ uploadId: z.string().min(1).max(64) });
export const PartParams = z.object({ uploadId: z.string().min(1).max(64), index: z.string().max(20) });
