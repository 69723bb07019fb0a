// Every collection a Folio instance stores, for moving a whole instance between backends (export.ts, import.ts).
import { assetsCollection } from '../domains/assets/collections.js';
import { sessions, signInLinks, users, waitlist } from '../domains/identity/collections.js';
import { apiKeys } from '../domains/keys/collections.js';
import { realtimeSecrets } from '../domains/realtime/collections.js';
import { transcriptsCollection } from '../domains/transcripts/collections.js';
import { chunkedUploads } from '../domains/uploads/chunked/collections.js';
import { uploadGrants } from '../domains/uploads/grant/collections.js';
import { watchedFilesCollection } from '../domains/watched-folders/collections.js';
import { workspacesCollection } from '../domains/workspaces/collections.js';
import type { CollectionSpec, Row } from '../store/types.js';

export const allCollections = [
  users,
  sessions,
  signInLinks,
  waitlist,
  apiKeys,
  workspacesCollection,
  realtimeSecrets,
  assetsCollection,
  uploadGrants,
  transcriptsCollection,
  chunkedUploads,
  watchedFilesCollection,
] as unknown as CollectionSpec<Row>[];
