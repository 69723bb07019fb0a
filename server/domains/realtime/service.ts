/** Realtime sessions: minting single-use client secrets and running the live sessions they open. */
import type { WebSocket } from 'ws';
import type { ActiveEngine } from '../../engines/whisper/active-engine.js';
import type { Store } from '../../store/types.js';
import type { TranscriptService } from '../transcripts/service.js';
import type { UploadService } from '../uploads/service.js';
import { createRealtimeSecrets } from './secrets.js';
import { type RealtimeOptions, runRealtimeSession } from './session.js';

export interface RealtimeDeps {
  store: Store;
  active: ActiveEngine;
  transcripts: TranscriptService;
  uploads: Pick<UploadService, 'createFromFile'>;
  tmpDir: string;
  options?: Partial<RealtimeOptions>;
}

export function createRealtimeService({
  store,
  active,
  transcripts,
  uploads,
  tmpDir,
  options,
}: RealtimeDeps) {
  const secrets = createRealtimeSecrets(store);
  const sockets = new Set<WebSocket>();
  return {
    /** For authenticate.ts: `frt_` secrets identify a realtime grant. */
    grants: secrets,
    mint: secrets.mint,
    run(ws: WebSocket, session: { workspaceId: string; sessionId: string }) {
      sockets.add(ws);
      ws.once('close', () => sockets.delete(ws));
      runRealtimeSession(ws, { ...session, active, transcripts, uploads, tmpDir, options });
    },
    close() {
      for (const ws of sockets) ws.terminate();
    },
  };
}

export type RealtimeService = ReturnType<typeof createRealtimeService>;
