// Every service the app builds once (app.ts) and hands to route handlers as their second argument.

import type { Config } from './config.js';
import type { AssetService } from './domains/assets/service.js';
import type { IdentityService } from './domains/identity/service.js';
import type { KeyService } from './domains/keys/service.js';
import type { ModelManager } from './domains/models/service.js';
import type { ArtifactService } from './domains/publishing/artifacts/service.js';
import type { ChartService } from './domains/publishing/charts/service.js';
import type { DiagramService } from './domains/publishing/diagrams/service.js';
import type { PublishingService } from './domains/publishing/service.js';
import type { RealtimeService } from './domains/realtime/service.js';
import type { InstanceSettingsStore } from './domains/settings/settings-store.js';
import type { SyncService } from './domains/sync/service.js';
import type { TranscriptService } from './domains/transcripts/service.js';
import type { ChunkedUploads } from './domains/uploads/chunked/service.js';
import type { UploadService } from './domains/uploads/service.js';
import type { WatchedFolderService } from './domains/watched-folders/service.js';
import type { WorkspaceService } from './domains/workspaces/service.js';
import type { RenderPool } from './engines/render/render-pool.js';
import type { ActiveEngine } from './engines/whisper/active-engine.js';
import type { Store } from './store/types.js';
import type { DashboardSource } from './surfaces/home/dashboard-files.js';
import type { McpService } from './surfaces/mcp/service.js';
import type { NodeStatusService } from './surfaces/reference/node-status.js';
import type { ReferenceService } from './surfaces/reference/service.js';

/**
 * What the process hosting the server hands it: the desktop shell's settings file and packaged dashboard, or Vite
 * in `npm run dev`. A headless server has neither (its settings are its flags; the dashboard comes from dist/).
 */
export type HostHooks = {
  dashboard?: DashboardSource;
  instanceSettings?: InstanceSettingsStore;
  /** The file the desktop app's log is written to now (it rotates); none elsewhere. */
  logFile?: () => string;
};

/** Things to stop when the server closes (timers, workers, sockets); `closing` turns true once it starts to. */
export type Lifecycle = { onClose(stop: () => Promise<void> | void): void; closing(): boolean };

export type Services = {
  lifecycle: Lifecycle;
  host: HostHooks;
  config: Config;
  store: Store;
  identity: IdentityService;
  workspaces: WorkspaceService;
  keys: KeyService;
  reference: ReferenceService;
  /** This node's liveness and readiness (/health, /ready). */
  node: NodeStatusService;
  assets: AssetService;
  /** Every way a file arrives and becomes an asset (chunked uploads apart, below). */
  uploads: UploadService;
  /** The Whisper engine of the active model: one per instance, shared by everything that transcribes. */
  engine: ActiveEngine;
  models: ModelManager;
  transcripts: TranscriptService;
  chunkedUploads: ChunkedUploads;
  /** Folders whose recordings are imported and transcribed as they appear. */
  watchedFolders: WatchedFolderService;
  realtime: RealtimeService;
  sync: SyncService;
  mcp: McpService;
  /** Worker threads for layout, charts, rasterizing and pages (never the event loop). */
  renderPool: RenderPool;
  /** What the three publishing kinds share, as sync reads and writes it. */
  publishing: PublishingService;
  diagrams: DiagramService;
  charts: ChartService;
  artifacts: ArtifactService;
};

// The services route handlers receive (server/http/route-services.ts names the interface; this fills it in): every
// service but the raw store, which only services read.
declare module './http/route-services.js' {
  interface RouteServices extends Omit<Services, 'store'> {}
}
