// Every service the app builds once (app.ts) and hands to route handlers as their second argument.
import type { ArtifactService } from './capabilities/artifacts/service.js';
import type { AssetService } from './capabilities/assets/service.js';
import type { ChartService } from './capabilities/charts/service.js';
import type { ChunkedUploads } from './capabilities/chunked-uploads/service.js';
import type { DiagramService } from './capabilities/diagrams/service.js';
import type { DashboardSource } from './capabilities/home/dashboard-files.js';
import type { IdentityService } from './capabilities/identity/service.js';
import type { KeyService } from './capabilities/keys/service.js';
import type { McpService } from './capabilities/mcp/service.js';
import type { ModelManager } from './capabilities/models/service.js';
import type { RenderPool } from './capabilities/publishing/render-pool.js';
import type { RealtimeService } from './capabilities/realtime/service.js';
import type { ReferenceService } from './capabilities/reference/service.js';
import type { InstanceSettingsStore } from './capabilities/settings/settings-store.js';
import type { SyncService } from './capabilities/sync/service.js';
import type { TranscriptService } from './capabilities/transcripts/service.js';
import type { ActiveEngine } from './capabilities/whisper/active-engine.js';
import type { WorkspaceService } from './capabilities/workspaces/service.js';
import type { Config } from './config.js';
import type { Store } from './store/types.js';

/**
 * What the process hosting the server hands it: the desktop shell's settings file and packaged dashboard, or Vite
 * in `npm run dev`. A headless server has neither (its settings are its flags; the dashboard comes from dist/).
 */
export type HostHooks = { dashboard?: DashboardSource; instanceSettings?: InstanceSettingsStore };

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
  assets: AssetService;
  /** The Whisper engine of the active model: one per instance, shared by everything that transcribes. */
  engine: ActiveEngine;
  models: ModelManager;
  transcripts: TranscriptService;
  chunkedUploads: ChunkedUploads;
  realtime: RealtimeService;
  sync: SyncService;
  mcp: McpService;
  /** Worker threads for layout, charts, rasterizing and pages (never the event loop). */
  renderPool: RenderPool;
  diagrams: DiagramService;
  charts: ChartService;
  artifacts: ArtifactService;
};
