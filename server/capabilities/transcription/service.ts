/**
 * Transcription: transcripts and their queue, chunked uploads, realtime sessions and the model manager, built once
 * with what they share (the active Whisper engine). Start-up re-queues interrupted jobs and reports an unusable
 * --whisper-model; close stops the queue, the sweep timer, live sessions and the engine worker.
 */
import { join } from 'node:path';
import type { WebSocket } from 'ws';
import type { Config } from '../../config.js';
import type { Lifecycle } from '../../services.js';
import type { Store } from '../../store/types.js';
import type { AssetService } from '../assets/service.js';
import { createChunkedUploads } from './chunked/uploads.js';
import type { WhisperEngine } from './engine/types.js';
import { createModelManager } from './model-manager.js';
import { createRealtimeSecrets } from './realtime/secrets.js';
import { type RealtimeOptions, runRealtimeSession } from './realtime/session.js';
import { createTranscriptService } from './transcripts.js';

export interface TranscriptionDeps {
  store: Store;
  assets: AssetService;
  config: Pick<
    Config,
    | 'dataDir'
    | 'whisperModel'
    | 'whisperThreads'
    | 'limits'
    | 'nodeId'
    | 'jobLeaseMs'
    | 'queuePollMs'
    | 'database'
  >;
  lifecycle: Lifecycle;
  log: (line: string) => void;
  createEngine?: (modelPath: string) => WhisperEngine;
  realtime?: Partial<RealtimeOptions>;
  modelBaseUrl?: string;
}

export function createTranscriptionService(deps: TranscriptionDeps) {
  const { store, assets, config, lifecycle, log } = deps;
  const transcripts = createTranscriptService({
    store,
    assets,
    config,
    log,
    createEngine: deps.createEngine,
    // Only a hosted instance has other nodes whose work and results must be looked for.
    queue: {
      node: config.nodeId,
      leaseMs: config.jobLeaseMs,
      pollMs: config.database ? config.queuePollMs : undefined,
    },
  });
  const chunked = createChunkedUploads({
    store,
    assets,
    transcripts,
    maxBytes: config.limits.uploadBytes,
    partsRoot: join(config.dataDir, 'chunked'),
  });
  const secrets = createRealtimeSecrets(store);
  const models = createModelManager({
    dataDir: config.dataDir,
    modelStore: transcripts.modelStore,
    active: transcripts.active,
    baseUrl: deps.modelBaseUrl,
  });
  const sockets = new Set<WebSocket>();

  const realtime = {
    grants: secrets,
    mint: secrets.mint,
    run(ws: WebSocket, session: { workspaceId: string; sessionId: string }) {
      sockets.add(ws);
      ws.once('close', () => sockets.delete(ws));
      runRealtimeSession(ws, {
        ...session,
        active: transcripts.active,
        transcripts,
        assets,
        tmpDir: store.tmpDir,
        options: deps.realtime,
      });
    },
  };

  lifecycle.onClose(async () => {
    for (const ws of sockets) ws.terminate();
    models.close();
    await transcripts.close();
  });

  return {
    transcripts,
    chunked,
    realtime,
    models,
    start: () => transcripts.start(),
    dropWorkspace: async (workspaceId: string) => {
      await transcripts.dropWorkspace(workspaceId);
      await chunked.dropWorkspace(workspaceId);
    },
    usage: transcripts.usage,
  };
}

export type TranscriptionService = ReturnType<typeof createTranscriptionService>;
