import { defineCollection } from '../../store/types.js';
import type { Workspace } from './schema.js';

export const workspacesCollection = defineCollection<Workspace>({
  name: 'workspaces',
  scope: 'instance',
  fields: { ownerId: 'text', personal: 'boolean', createdAt: 'text' },
});
