import { defineCollection } from '../../store/types.js';

/** Realtime client secrets by the SHA-256 of the secret (secrets.ts): the secret itself is never stored. */
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
