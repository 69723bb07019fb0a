import { defineCollection } from '../../../store/types.js';
import type { ChunkedUploadRecord } from './schema.js';

export const chunkedUploads = defineCollection<ChunkedUploadRecord>({
  name: 'chunked-uploads',
  scope: 'workspace',
  fields: { status: 'text', expiresAt: 'text', createdAt: 'text', rev: 'number', claimUntil: 'text' },
});
