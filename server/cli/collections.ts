// Every collection a Folio instance stores, for moving a whole instance between backends (export.ts, import.ts).
import { assetsCollection, uploadGrants } from '../capabilities/assets/collections.js';
import { chunkedUploads } from '../capabilities/chunked-uploads/collections.js';
import { sessions, signInLinks, users, waitlist } from '../capabilities/identity/collections.js';
import { apiKeys } from '../capabilities/keys/collections.js';
import { realtimeSecrets } from '../capabilities/realtime/collections.js';
import { transcriptsCollection } from '../capabilities/transcripts/collections.js';
import { workspacesCollection } from '../capabilities/workspaces/collections.js';
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
] as unknown as CollectionSpec<Row>[];
