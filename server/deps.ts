// What the app builds once (build-deps.ts, for app.ts): its config and lifecycle, the store, every domain's service,
// the surfaces' own, the Whisper engine and the render pool. Route handlers get all of it but the store as their
// second argument (RouteDeps), and are declared with the definers bound to it here, so the transport (http/) never
// names the app.

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
import { routeDefiners } from './http/define-route.js';
import { socketDefiner } from './http/mount-sockets.js';
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

/** What every route handler gets as its second argument (a socket handler as its third): everything built but the
 * raw store, which only the services read. */
export type RouteDeps = {
  lifecycle: Lifecycle;
  host: HostHooks;
  config: Config;
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

/** Everything the app built: what route handlers get, and the store beneath it. */
export type Deps = RouteDeps & { store: Store };

/** How routes and WebSocket routes are declared: their handlers get RouteDeps. */
export const { defineRoute, defineRawRoute } = routeDefiners<RouteDeps>();
export const defineSocket = socketDefiner<RouteDeps>();
