// Transcripts sync once settled (completed or failed): words, segments, text and where they came from. A pending
// one waits for its own engine; the receiving instance stores it as it is and never queues it again.
import { z } from 'zod';
import type { TranscriptRecord } from '../../transcripts/schema.js';
import { TranscriptSegment, TranscriptWord } from '../../transcripts/schema.js';
import type { TranscriptService } from '../../transcripts/service.js';
import { RecordId } from '../protocol/schema.js';
import { type KindAdapter, type Payload, pickFields, Timestamp } from './types.js';

export const SyncedTranscript = z.object({
  status: z.enum(['completed', 'failed']),
  progress: z.number().int().min(0).max(100),
  error: z.string().max(2000).optional(),
  audioAssetId: RecordId,
  source: z.enum(['transcribe', 'chunked', 'openai', 'realtime', 'watched']),
  requestedLanguage: z.string().max(16).optional(),
  prompt: z.string().max(2000).optional(),
  language: z.string().max(16).optional(),
  duration: z.number().min(0).optional(),
  text: z.string().optional(),
  segments: z.array(TranscriptSegment).optional(),
  words: z.array(TranscriptWord).optional(),
  model: z.string().max(200).nullable().optional(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  completedAt: Timestamp.optional(),
});
type SyncedTranscript = z.infer<typeof SyncedTranscript>;

const FIELDS = Object.keys(SyncedTranscript.shape) as Array<keyof SyncedTranscript>;

export function transcriptAdapter(transcripts: TranscriptService): KindAdapter {
  return {
    kind: 'transcript',
    collection: transcripts.collection,
    service: 'transcription',
    schema: SyncedTranscript as unknown as z.ZodType<Payload>,
    payload: (row) => pickFields(row, FIELDS),
    hashed: ({ updatedAt: _, ...fields }) => fields,
    ready: (row) => {
      const { status } = row as TranscriptRecord;
      return status === 'completed' || status === 'failed';
    },
    blobs: () => [],
    put: (workspaceId, id, payload, ifSeq) =>
      transcripts.putSynced(
        workspaceId,
        { id, model: null, ...(payload as SyncedTranscript) } as TranscriptRecord,
        ifSeq,
      ),
    remove: (workspaceId, id, ifSeq) => transcripts.removeIf(workspaceId, id, ifSeq),
  };
}
