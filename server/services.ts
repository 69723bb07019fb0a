// Every service the app builds once (app.ts) and hands to route handlers as their second argument.
import type { AssetService } from './capabilities/assets/service.js';
import type { ChunkedUploads } from './capabilities/chunked-uploads/service.js';
import type { IdentityService } from './capabilities/identity/service.js';
import type { KeyService } from './capabilities/keys/service.js';
import type { ModelManager } from './capabilities/models/service.js';
import type { RealtimeService } from './capabilities/realtime/service.js';
import type { ReferenceService } from './capabilities/reference/service.js';
import type { SyncService } from './capabilities/sync/service.js';
import type { TranscriptService } from './capabilities/transcripts/service.js';
import type { ActiveEngine } from './capabilities/whisper/active-engine.js';
import type { WorkspaceService } from './capabilities/workspaces/service.js';
import type { Config } from './config.js';
import type { Store } from './store/types.js';

/** Things to stop when the server closes (timers, workers, sockets). */
export type Lifecycle = { onClose(stop: () => Promise<void> | void): void };

export type Services = {
  lifecycle: Lifecycle;
  config: Config;
  store: Store;
  identity: IdentityService;
  workspaces: WorkspaceService;
  keys: KeyService;
  reference: ReferenceService;
  assets: AssetService;
  /** The Whisper engine of the active model: one per instance, shared by everything that transcribes. */
  engine: ActiveEngine;
  models: ModelManager;
  transcripts: TranscriptService;
  chunkedUploads: ChunkedUploads;
  realtime: RealtimeService;
  sync: SyncService;
};
