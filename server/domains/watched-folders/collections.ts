import { defineCollection } from '../../store/types.js';
import type { WatchedFileRecord } from './schema.js';

/** Each content a watched folder brought into a workspace, by SHA-256: a rename or a copy finds its row. */
export const watchedFilesCollection = defineCollection<WatchedFileRecord>({
  name: 'watched-files',
  scope: 'workspace',
  fields: {
    folderId: 'text',
    name: 'text',
    size: 'number',
    mtimeMs: 'number',
    status: 'text',
    createdAt: 'text',
  },
});
