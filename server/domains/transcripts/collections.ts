import { defineCollection } from '../../store/types.js';
import type { TranscriptRecord } from './schema.js';

/** The transcripts of a workspace; pending rows are also the queue (queue.ts). */
export const transcriptsCollection = defineCollection<TranscriptRecord>({
  name: 'transcripts',
  scope: 'workspace',
  fields: { status: 'text', audioAssetId: 'text', createdAt: 'text', node: 'text', leaseUntil: 'text' },
});
