/** Realtime voice sessions (docs/transcription.md#realtime): mint a single-use client secret, then stream over WebSocket. */

import { defineRoute, defineSocket } from '../../deps.js';
import { MintRealtimeBody, RealtimeSession } from './schema.js';
import { SAMPLE_RATE } from './session.js';

export const REALTIME_WS_PATH = '/api/v1/realtime/ws';

export const createRealtimeSession = defineRoute({
  method: 'POST',
  path: '/api/v1/realtime/sessions',
  auth: ['session', 'key'],
  service: 'realtime',
  body: MintRealtimeBody,
  response: RealtimeSession,
  status: 201,
  tool: 'realtime_create_session',
  summary: 'Mint a live transcription session: a short-lived, single-use client secret and the WebSocket URL',
  description:
    'Hand `clientSecret.value` to the client (e.g. a browser); it connects to `websocketUrl?client_secret=<value>` within `expiresIn` seconds (default 60, max 600). A second connect with the same secret is refused (410). See the realtime protocol in /llms-full.txt.',
  handler: async ({ workspace, body, origin }, { realtime }) => {
    const minted = await realtime.mint(workspace.id, body.expiresIn);
    return {
      id: minted.id,
      clientSecret: { value: minted.secret, expiresAt: minted.expiresAt },
      websocketUrl: `${origin.replace(/^http/, 'ws')}${REALTIME_WS_PATH}`,
      expiresAt: minted.expiresAt,
      audio: { format: 'pcm16', sampleRate: SAMPLE_RATE, channels: 1 } as const,
    };
  },
});

export const realtimeSocket = defineSocket({
  path: REALTIME_WS_PATH,
  auth: ['grant', 'key'],
  service: 'realtime',
  grantPurpose: 'realtime',
  summary: 'Live transcription: binary PCM s16le 16 kHz mono in, JSON transcript events out',
  handler: (ws, { workspace, viewer }, { realtime }) =>
    realtime.run(ws, {
      workspaceId: workspace.id,
      sessionId: viewer.kind === 'grant' ? viewer.grant.id : `key-${Date.now()}`,
    }),
});

export const realtimeRoutes = { createRealtimeSession };
