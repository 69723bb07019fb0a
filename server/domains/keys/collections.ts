import { defineCollection } from '../../store/types.js';
import type { ApiKeyRow } from './schema.js';

export const apiKeys = defineCollection<ApiKeyRow>({
  name: 'api-keys',
  scope: 'instance',
  fields: { workspaceId: 'text', services: 'text[]', createdAt: 'text' },
  unique: ['hash'],
});
