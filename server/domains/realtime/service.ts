/** Realtime sessions: minting single-use client secrets and running the live sessions they open. */
import type { WebSocket } from 'ws';
import type { ActiveEngine } from '../../engines/whisper/active-engine.js';
import type { Store } from '../../store/types.js';
import type { AssetService } from '../assets/service.js';
import type { TranscriptService } from '../transcripts/service.js';
import { createRealtimeSecrets } from './secrets.js';
import { type RealtimeOptions, runRealtimeSession } from './session.js';

export interface RealtimeDeps {
  store: Store;
  active: ActiveEngine;
  transcripts: TranscriptService;
  assets: AssetService;
  tmpDir: string;
  options?: Partial<RealtimeOptions>;
}

export function createRealtimeService({ store, active, transcripts, assets, tmpDir, options }: RealtimeDeps) {
  const secrets = createRealtimeSecrets(store);
  const sockets = new Set<WebSocket>();
  return {
    /** For authenticate.ts: `frt_` secrets identify a realtime grant. */
    grants: secrets,
    mint: secrets.mint,
    run(ws: WebSocket, session: { workspaceId: string; sessionId: string }) {
      sockets.add(ws);
      ws.once('close', () => sockets.delete(ws));
      runRealtimeSession(ws, { ...session, active, transcripts, assets, tmpDir, options });
    },
    close() {
      for (const ws of sockets) ws.terminate();
    },
  };
}

export type RealtimeService = ReturnType<typeof createRealtimeService>;
