import { defineCollection } from '../../../store/types.js';
import type { UploadGrantRecord } from '../../assets/schema.js';

export const uploadGrants = defineCollection<UploadGrantRecord>({
  name: 'upload-grants',
  scope: 'workspace',
  fields: { expiresAt: 'text', usedAt: 'text', claimedAt: 'text', createdAt: 'text' },
  unique: ['hash'],
});
