// The API's table of contents: every capability, in the order its routes mount.
// Route names (the exported consts) become OpenAPI operationIds.
import type { AnyRoute } from '../http/define-route.js';
import type { SocketDefinition } from '../http/mount-sockets.js';
import * as assets from './assets/routes.js';
import * as assetServing from './assets/serve-routes.js';
import * as home from './home/routes.js';
import * as identity from './identity/routes.js';
import * as keys from './keys/routes.js';
import * as reference from './reference/routes.js';
import * as serviceRegistry from './service-registry/routes.js';
import * as sessionUploads from './session-uploads/routes.js';
import * as settings from './settings/routes.js';
import * as chunkedUploads from './transcription/chunked/routes.js';
import { transcriptionDocs } from './transcription/docs.js';
import * as models from './transcription/model-routes.js';
import * as openAiTranscription from './transcription/openai/routes.js';
import * as realtime from './transcription/realtime/routes.js';
import * as transcripts from './transcription/routes.js';
import * as waitlist from './waitlist/routes.js';
import * as workspaces from './workspaces/routes.js';

export type Capability = {
  name: string;
  title: string;
  /** A paragraph for /llms.txt. */
  summary?: string;
  /** Protocol notes for /llms-full.txt (event formats, URL grammars). */
  docs?: string;
  routes: Record<string, unknown>;
  /** WebSocket routes, behind the same credentials and services as HTTP routes. */
  sockets?: SocketDefinition[];
};

export type NamedRoute = { name: string; capability: string; route: AnyRoute };

export const capabilities: Capability[] = [
  {
    name: 'account',
    title: 'Account: profile, workspaces, API keys, services',
    routes: { ...identity, ...workspaces, ...keys, ...serviceRegistry },
  },
  { name: 'waitlist', title: 'Waitlist and sign-in', routes: waitlist },
  { name: 'assets', title: 'Assets (service: assets)', routes: assets },
  {
    name: 'transcription',
    title: 'Transcription and realtime (services: transcription, realtime)',
    summary:
      'Local Whisper transcription: POST /api/v1/transcribe (≤ 4 MiB, waits), chunked upload for long audio (key only), transcripts with words and SRT/VTT/TXT/JSON export, an OpenAI-compatible POST /v1/audio/transcriptions, live sessions over WebSocket, and the model manager.',
    docs: transcriptionDocs,
    routes: { ...transcripts, ...chunkedUploads, ...openAiTranscription, ...realtime, ...models },
    sockets: [realtime.realtimeSocket],
  },
  {
    name: 'serving',
    title: 'Public serve routes',
    summary:
      'GET /img/<preset>/<op>/.../<key> (raster images; presets thumb, small, medium, large, og; ops w320, h240, fit-cover, q80, webp, avif, jpeg, png, auto — applied left to right, later ones override), GET /f/<key> (download), GET /audio/<key> (inline with Range). Asset JSON carries these URLs ready to use.',
    routes: assetServing,
  },
  { name: 'session-uploads', title: 'Dashboard chunked uploads (session)', routes: sessionUploads },
  { name: 'settings', title: 'Instance settings (instance owner)', routes: settings },
  { name: 'reference', title: 'Reference', routes: reference },
  { name: 'home', title: 'Dashboard', routes: { ...home, ...home.dashboardSections } },
];

const isRoute = (value: unknown): value is AnyRoute =>
  typeof value === 'object' && value !== null && 'handler' in value && 'path' in value && 'method' in value;

export function namedRoutes(list: Capability[] = capabilities): NamedRoute[] {
  return list.flatMap((capability) =>
    Object.entries(capability.routes)
      .filter((entry): entry is [string, AnyRoute] => isRoute(entry[1]))
      .map(([name, route]) => ({ name, capability: capability.name, route })),
  );
}
