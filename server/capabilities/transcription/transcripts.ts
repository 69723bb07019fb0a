/** Transcripts: records, the queue that runs them on the active Whisper model, and POST /transcribe. */
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { basename } from 'node:path';
import type { Config } from '../../config.js';
import { conflict, notFound } from '../../http/errors.js';
import { newId } from '../../store/ids.js';
import type { Store } from '../../store/store.js';
import { receiveMultipart } from '../assets/ingest/receive-multipart.js';
import type { AssetService } from '../assets/service.js';
import { type ActiveEngine, createActiveEngine } from './active-engine.js';
import type { EngineResult, WhisperEngine } from './engine/types.js';
import { createModelStore } from './models/model-store.js';
import { type OpenAiRequest, parseOpenAiFields } from './openai/format.js';
import {
  createTranscriptQueue,
  type JobContext,
  type JobResult,
  type Settled,
  TRANSCRIPTS,
} from './queue.js';
import type {
  ListTranscriptsQuery,
  Transcript,
  TranscriptRecord,
  TranscriptSource,
  TranscriptSummary,
} from './schema.js';
import { listTranscriptRecords } from './transcript-list.js';

export interface TranscriptionServiceDeps {
  store: Store;
  assets: AssetService;
  config: Pick<Config, 'dataDir' | 'whisperModel' | 'whisperThreads' | 'limits'>;
  log: (line: string) => void;
  createEngine?: (modelPath: string) => WhisperEngine;
  /** Jobs run at once on the engine (default 1: the worker runs one job at a time anyway). */
  concurrency?: number;
}

export interface NewTranscript {
  audioAssetId: string;
  source: TranscriptSource;
  language?: string;
  prompt?: string;
  modelPath?: string;
}

export function createTranscriptService({
  store,
  assets,
  config,
  log,
  createEngine,
  concurrency = 1,
}: TranscriptionServiceDeps) {
  const modelStore = createModelStore({ dataDir: config.dataDir });
  const active: ActiveEngine = createActiveEngine({
    modelStore,
    dataDir: config.dataDir,
    overridePath: config.whisperModel,
    threads: config.whisperThreads,
    tmpDir: store.tmpDir,
    log,
    createEngine,
  });
  const queue = createTranscriptQueue({ store, run: runJob, log, concurrency });
  const transcripts = (workspaceId: string) => store.collection<TranscriptRecord>(TRANSCRIPTS, workspaceId);

  async function runJob({ workspaceId, transcript, signal, progress }: JobContext): Promise<JobResult> {
    const engine = await active.engine(transcript.modelPath);
    const path = assets.filePath(workspaceId, transcript.audioAssetId);
    const result = await engine.transcribeFile(path, {
      language: transcript.requestedLanguage,
      prompt: transcript.prompt,
      signal,
      onProgress: progress,
    });
    return { ...fromEngineResult(result), model: basename(engine.modelPath) };
  }

  async function create(workspaceId: string, input: NewTranscript): Promise<TranscriptRecord> {
    const at = new Date().toISOString();
    const record: TranscriptRecord = {
      id: newId('trn'),
      status: 'pending',
      progress: 0,
      audioAssetId: input.audioAssetId,
      source: input.source,
      ...(input.language ? { requestedLanguage: input.language } : {}),
      ...(input.prompt ? { prompt: input.prompt } : {}),
      ...(input.modelPath ? { modelPath: input.modelPath } : {}),
      model: input.modelPath ? basename(input.modelPath) : await active.activeModelName(),
      createdAt: at,
      updatedAt: at,
    };
    await transcripts(workspaceId).insert(record);
    queue.kick();
    return record;
  }

  /** A transcript that was made elsewhere (a realtime session): stored completed, never queued. */
  async function createCompleted(
    workspaceId: string,
    input: NewTranscript & { result: JobResult },
  ): Promise<TranscriptRecord> {
    const at = new Date().toISOString();
    const record: TranscriptRecord = {
      id: newId('trn'),
      status: 'completed',
      progress: 100,
      audioAssetId: input.audioAssetId,
      source: input.source,
      model: await active.activeModelName(),
      ...input.result,
      createdAt: at,
      updatedAt: at,
      completedAt: at,
    };
    return transcripts(workspaceId).insert(record);
  }

  function find(workspaceId: string, id: string): TranscriptRecord {
    const record = transcripts(workspaceId).find(id);
    if (!record) throw notFound('Transcript');
    return record;
  }

  /** Deletes the transcript and its audio asset; a running job is cancelled first. */
  async function remove(workspaceId: string, id: string): Promise<void> {
    const record = find(workspaceId, id);
    await queue.abort(workspaceId, id);
    await transcripts(workspaceId).remove(id);
    queue.forget(workspaceId, record);
    await assets.remove(workspaceId, record.audioAssetId);
  }

  async function retry(workspaceId: string, id: string): Promise<TranscriptRecord> {
    const record = find(workspaceId, id);
    if (record.status !== 'pending' && record.status !== 'failed')
      throw conflict(`Only a pending or failed transcript can be retried; this one is ${record.status}`);
    const at = new Date().toISOString();
    const updated = await transcripts(workspaceId).update(id, {
      status: 'pending',
      progress: 0,
      error: undefined,
      model: await active.activeModelName(),
      updatedAt: at,
    });
    queue.kick();
    return updated ?? record;
  }

  /** pending → failed ("cancelled") at once; processing → the engine job is aborted, then failed. */
  async function cancel(workspaceId: string, id: string): Promise<TranscriptRecord> {
    const record = find(workspaceId, id);
    if (record.status === 'completed' || record.status === 'failed')
      throw conflict(
        `Only a pending or processing transcript can be cancelled; this one is ${record.status}`,
      );
    if (!(await queue.abort(workspaceId, id))) await queue.cancelPending(workspaceId, id);
    return find(workspaceId, id);
  }

  /** POST /api/v1/transcribe: the file (≤ limits.transcribeBytes, enforced while streaming) to a settled transcript. */
  async function transcribeUpload(workspaceId: string, req: IncomingMessage): Promise<Settled> {
    const fields: Record<string, string> = {};
    const received = await receiveMultipart(req, {
      tmpDir: store.tmpDir,
      maxBytes: config.limits.transcribeBytes,
      onField: (name, value) => {
        fields[name] = value; // fields after the file count too
      },
    });
    return transcribeFile(workspaceId, received, { source: 'transcribe', ...optionsFrom(fields) });
  }

  /** Makes the audio asset from a received temp file (taking ownership), queues it and waits for the result. */
  async function transcribeFile(
    workspaceId: string,
    file: { tmpPath: string; filename: string; sha256?: string },
    options: Omit<NewTranscript, 'audioAssetId'>,
  ): Promise<Settled> {
    const asset = await assets
      .createFromFile(workspaceId, { path: file.tmpPath, filename: file.filename, sha256: file.sha256 })
      .catch(async (error) => {
        await rm(file.tmpPath, { force: true });
        throw error;
      });
    const record = await create(workspaceId, { ...options, audioAssetId: asset.id });
    return queue.settled(workspaceId, record.id);
  }

  /** POST /v1/audio/transcriptions: OpenAI's form, any size up to the upload limit; waits for the result. */
  async function transcribeOpenAi(workspaceId: string, req: IncomingMessage) {
    const fields: Array<[string, string]> = [];
    const received = await receiveMultipart(req, {
      tmpDir: store.tmpDir,
      maxBytes: config.limits.uploadBytes,
      onField: (name, value) => void fields.push([name, value]),
    });
    let request: OpenAiRequest;
    let modelPath: string | undefined;
    try {
      request = parseOpenAiFields(fields);
      modelPath = request.model ? await installedModelPath(request.model) : undefined;
    } catch (error) {
      await rm(received.tmpPath, { force: true });
      throw error;
    }
    const { language, prompt } = request;
    const settled = await transcribeFile(workspaceId, received, {
      source: 'openai',
      language,
      prompt,
      modelPath,
    });
    return { settled, request };
  }

  /** `model` names an installed, usable model (file or catalog name): its path; anything else: the active one. */
  async function installedModelPath(model: string): Promise<string | undefined> {
    const installed = await modelStore.list();
    const found = installed.find(
      (m) => m.header && (m.file === model || m.name === model || m.file === `ggml-${model}.bin`),
    );
    return found?.path;
  }

  return {
    create,
    createCompleted,
    transcribeOpenAi,
    get: (workspaceId: string, id: string) => presentTranscript(find(workspaceId, id)),
    find,
    list: (workspaceId: string, query: ListTranscriptsQuery) => {
      const page = listTranscriptRecords(transcripts(workspaceId).all(), query);
      return { data: page.rows.map(presentSummary), nextCursor: page.nextCursor };
    },
    remove,
    retry,
    cancel,
    transcribeUpload,
    transcribeFile,
    settled: queue.settled,
    active,
    modelStore,
    /** Start-up: re-queue interrupted jobs, report an unusable --whisper-model, start the queue. */
    async start(): Promise<void> {
      await queue.recover();
      await active.checkAtStart();
      queue.kick();
    },
    async close(): Promise<void> {
      await queue.stop();
      await active.close();
    },
    /** Workspace deleted: its running job stops (its files go with the workspace directory). */
    async dropWorkspace(workspaceId: string): Promise<void> {
      for (const t of transcripts(workspaceId).filter((row) => row.status === 'processing'))
        await queue.abort(workspaceId, t.id);
    },
    usage: (workspaceId: string) => ({ count: transcripts(workspaceId).count(), bytes: 0 }),
  };
}

export type TranscriptService = ReturnType<typeof createTranscriptService>;

function optionsFrom(fields: Record<string, string>): { language?: string; prompt?: string } {
  const language = fields.language?.trim() || undefined;
  const prompt = fields.prompt?.trim() || undefined;
  return { ...(language ? { language } : {}), ...(prompt ? { prompt } : {}) };
}

/** Engine result → stored fields: segments without their words, words flattened in order. */
export function fromEngineResult(result: EngineResult): JobResult {
  return {
    language: result.language,
    duration: result.duration,
    text: result.text,
    segments: result.segments.map(({ id, start, end, text }) => ({ id, start, end, text })),
    words: result.segments.flatMap((s) =>
      s.words.map(({ word, start, end, probability }) => ({ word, start, end, probability })),
    ),
  };
}

export function presentSummary(record: TranscriptRecord): TranscriptSummary {
  const {
    segments: _s,
    words: _w,
    source: _src,
    requestedLanguage: _l,
    prompt: _p,
    modelPath: _m,
    ...summary
  } = record;
  return summary;
}

export function presentTranscript(record: TranscriptRecord): Transcript {
  return { ...presentSummary(record), segments: record.segments ?? [], words: record.words ?? [] };
}
