import { defineCollection } from '../../store/types.js';
import type { ChunkedUploadRecord } from './chunked/schema.js';
import type { TranscriptRecord } from './schema.js';

/** The transcripts of a workspace; pending rows are also the queue (queue.ts). */
export const transcriptsCollection = defineCollection<TranscriptRecord>({
  name: 'transcripts',
  scope: 'workspace',
  fields: { status: 'text', audioAssetId: 'text', createdAt: 'text', node: 'text', leaseUntil: 'text' },
});

export const chunkedUploads = defineCollection<ChunkedUploadRecord>({
  name: 'chunked-uploads',
  scope: 'workspace',
  fields: { status: 'text', expiresAt: 'text', createdAt: 'text', rev: 'number', claimUntil: 'text' },
});

/** Realtime client secrets by the SHA-256 of the secret (realtime/secrets.ts): the secret itself is never stored. */
export const realtimeSecrets = defineCollection<{
  id: string;
  sessionId: string;
  workspaceId: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}>({
  name: 'realtime-secrets',
  scope: 'instance',
  fields: { expiresAt: 'text', usedAt: 'text' },
});
