// The API's table of contents: every capability, in the order its routes mount.
// Route names (the exported consts) become OpenAPI operationIds.

import { assetApiRoutes } from '../domains/assets/routes.js';
import { assetServeRoutes } from '../domains/assets/serve-routes.js';
import { identityRoutes } from '../domains/identity/routes.js';
import { keyRoutes } from '../domains/keys/routes.js';
import { modelRoutes } from '../domains/models/routes.js';
import { artifactRoutes } from '../domains/publishing/artifacts/routes.js';
import { chartRoutes } from '../domains/publishing/charts/routes.js';
import { diagramRoutes } from '../domains/publishing/diagrams/routes.js';
import {
  artifactDocs,
  artifactSummary,
  chartDocs,
  chartSummary,
  diagramDocs,
  diagramSummary,
} from '../domains/publishing/docs.js';
import { realtimeRoutes, realtimeSocket } from '../domains/realtime/routes.js';
import { settingsRoutes } from '../domains/settings/routes.js';
import { syncLocalRoutes } from '../domains/sync/desktop/screen-routes.js';
import { syncProtocolRoutes } from '../domains/sync/hosted/protocol-routes.js';
import { transcriptionDocs } from '../domains/transcripts/docs.js';
import { transcriptRoutes } from '../domains/transcripts/routes.js';
import { chunkedUploadRoutes, sessionChunkedUploadRoutes } from '../domains/uploads/chunked/routes.js';
import { directUploadRoutes } from '../domains/uploads/direct/routes.js';
import { grantUploadRoutes } from '../domains/uploads/grant/routes.js';
import { waitlistRoutes } from '../domains/waitlist/routes.js';
import { watchedFolderDocs } from '../domains/watched-folders/docs.js';
import { watchedFolderRoutes } from '../domains/watched-folders/routes.js';
import { workspaceRoutes } from '../domains/workspaces/routes.js';
import type { Capability, NamedRoute } from './capability.js';
import { homeRoutes } from './home/routes.js';
import { mcpRoutes } from './mcp/routes.js';
import { openAiRoutes } from './openai/routes.js';
import { referenceRoutes } from './reference/routes.js';

export type { Capability, NamedRoute };

export const capabilities: Capability[] = [
  {
    name: 'account',
    title: 'Account: profile, workspaces, API keys, services',
    routes: { ...identityRoutes, ...workspaceRoutes, ...keyRoutes },
  },
  { name: 'waitlist', title: 'Waitlist and sign-in', routes: waitlistRoutes },
  {
    name: 'assets',
    title: 'Assets (service: assets)',
    routes: { ...directUploadRoutes, ...grantUploadRoutes, ...assetApiRoutes },
  },
  {
    name: 'transcription',
    title: 'Transcription and realtime (services: transcription, realtime)',
    summary:
      'Local Whisper transcription: POST /api/v1/transcribe (≤ 4 MiB, waits), chunked upload for long audio (key only), transcripts with words and SRT/VTT/TXT/JSON export, an OpenAI-compatible POST /v1/audio/transcriptions, live sessions over WebSocket, and the model manager.',
    docs: transcriptionDocs,
    routes: {
      ...transcriptRoutes,
      ...chunkedUploadRoutes,
      ...openAiRoutes,
      ...realtimeRoutes,
      ...modelRoutes,
    },
    sockets: [realtimeSocket],
  },
  {
    name: 'diagrams',
    title: 'Diagrams (service: diagrams)',
    summary: diagramSummary,
    docs: diagramDocs,
    routes: diagramRoutes,
  },
  {
    name: 'charts',
    title: 'Charts (service: charts)',
    summary: chartSummary,
    docs: chartDocs,
    routes: chartRoutes,
  },
  {
    name: 'artifacts',
    title: 'Artifacts (service: artifacts)',
    summary: artifactSummary,
    docs: artifactDocs,
    routes: artifactRoutes,
  },
  {
    name: 'serving',
    title: 'Public serve routes',
    summary:
      'GET /img/<preset>/<op>/.../<key> (raster images; presets thumb, small, medium, large, og; ops w320, h240, fit-cover, q80, webp, avif, jpeg, png, auto — applied left to right, later ones override), GET /f/<key> (download), GET /audio/<key> (inline with Range). Asset JSON carries these URLs ready to use.',
    routes: assetServeRoutes,
  },
  {
    name: 'sync',
    title: 'Sync (between a desktop Folio and a hosted one)',
    summary:
      'The protocol a desktop Folio syncs a workspace with (docs/sync.md): GET /api/v1/sync/info, POST /api/v1/sync/plan, blobs in packs (POST /api/v1/sync/packs, then parts and complete, resumable), POST /api/v1/sync/push (Idempotency-Key; each record only over the version it was based on, else 409 with the server’s version), GET /api/v1/sync/changes?since=. A key syncs the kinds its services cover and is told what it skips. The desktop’s own sync screen: /api/v1/sync/settings, /status, /run, /conflicts (session only).',
    routes: { ...syncProtocolRoutes, ...syncLocalRoutes },
  },
  {
    name: 'mcp',
    title: 'MCP server for agents',
    summary:
      'Streamable HTTP at /mcp for MCP clients (Claude, Cursor, VS Code, Codex), with the same API key as `Authorization: Bearer`. Tools are named `<capability>_<verb>` (assets_list, transcripts_create, ...) and generated from these routes; a key sees the tools of its services. Resources: folio://reference/llms.txt and folio://<capability>/{id}. `npm run serve -- --print-mcp-config <client>` prints a ready client config.',
    routes: mcpRoutes,
  },
  {
    name: 'session-uploads',
    title: 'Dashboard chunked uploads (session)',
    routes: sessionChunkedUploadRoutes,
  },
  {
    name: 'settings',
    title: 'Instance settings (instance owner)',
    summary:
      'What runs and what the desktop app starts with (GET/PATCH /api/v1/settings), and watched folders (GET/POST /api/v1/watched-folders, DELETE /api/v1/watched-folders/:folderId): recordings that appear there are imported into a workspace and transcribed once per content. Session of the instance owner only.',
    docs: watchedFolderDocs,
    routes: { ...settingsRoutes, ...watchedFolderRoutes },
  },
  { name: 'reference', title: 'Reference', routes: referenceRoutes },
  { name: 'home', title: 'Dashboard', routes: homeRoutes },
];

/** Modules whose `renderTasks` every render worker loads (layout, charts, rasterizing, pages). */
export const renderTaskModules = [
  '../domains/publishing/diagrams/render-tasks.ts',
  '../domains/publishing/charts/render-tasks.ts',
  '../domains/publishing/artifacts/render-tasks.ts',
].map((path) => new URL(path, import.meta.url).href);

/** Every route with its name and capability, in mount order. */
export function namedRoutes(list: Capability[] = capabilities): NamedRoute[] {
  return list.flatMap((capability) =>
    Object.entries(capability.routes).map(([name, route]) => ({ name, capability: capability.name, route })),
  );
}
