/** Transcripts: records, the queue that runs them on the active Whisper engine, and the audio they are made from. */
import { rm } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ActiveEngine } from '../../engines/whisper/active-engine.js';
import { conflict, notFound } from '../../http/errors.js';
import type { Logger } from '../../log.js';
import { newId } from '../../store/ids.js';
import type { Patch, Store } from '../../store/types.js';
import type { AssetService } from '../assets/service.js';
import type { ReceivedFile, UploadService } from '../uploads/service.js';
import { transcriptsCollection } from './collections.js';
import { engineJob } from './engine-job.js';
import { exportTranscript } from './exports.js';
import type { JobResult, Settled } from './job.js';
import { assertCanTranslate, optionsFromForm, type StoredOptions, withDefaults } from './options.js';
import { presentSummary, presentTranscript } from './present-transcript.js';
import { createTranscriptQueue } from './queue.js';
import type { ListTranscriptsQuery, TranscriptRecord, TranscriptSource } from './schema.js';
import { settledReply } from './settled-reply.js';

export interface TranscriptServiceDeps {
  store: Store;
  assets: AssetService;
  /** Makes the audio asset from a received file: the uploads domain's entry for a file another domain holds. */
  assetFromFile: UploadService['createFromFile'];
  /** The Whisper engine of the active model, built once for the instance (whisper/active-engine.ts). */
  active: ActiveEngine;
  log: Logger;
  /** Jobs run at once on the engine (default 1: the worker runs one job at a time anyway). */
  concurrency?: number;
  /**
   * Many nodes: this node's name, the lease on a running job, how often to look for others' work, and whether to
   * leave jobs to nodes that can transcribe when this one cannot (queue.ts).
   */
  queue?: { node: string; leaseMs: number; pollMs?: number; onlyWhenReady?: boolean; unclaimedMs?: number };
  /**
   * Where received audio waits until it becomes an asset (the store's tmpDir), the largest upload, and the
   * largest one POST /transcribe takes (it holds the request open until the transcript settles).
   */
  uploads: { tmpDir: string; maxBytes: number; transcribeMaxBytes: number };
  /** The owner's saved defaults for new transcripts (Settings, desktop app only). */
  savedOptions?: () => Promise<StoredOptions | undefined>;
}

/** Where a received file may be written, and how many bytes it may hold. */
export type UploadSpace = { tmpDir: string; maxBytes: number };

export interface NewTranscript {
  /** A fixed id, so a retried step finds the transcript it made before (chunked complete). */
  id?: string;
  audioAssetId: string;
  source: TranscriptSource;
  language?: string;
  prompt?: string;
  modelPath?: string;
  options?: StoredOptions;
}

export function createTranscriptService({
  store,
  assets,
  assetFromFile,
  active,
  log,
  concurrency = 1,
  queue: queueOptions,
  uploads,
  savedOptions,
}: TranscriptServiceDeps) {
  const run = engineJob({ active, assets });
  const { onlyWhenReady, ...placement } = queueOptions ?? {};
  const canRun = onlyWhenReady ? active.canTranscribe : undefined;
  const queue = createTranscriptQueue({ store, run, log, concurrency, canRun, ...placement });
  const transcripts = (workspaceId: string) => store.collection(transcriptsCollection, workspaceId);

  async function create(workspaceId: string, input: NewTranscript): Promise<TranscriptRecord> {
    const at = new Date().toISOString();
    const options = withDefaults(input.options ?? {}, await savedOptions?.());
    const record: TranscriptRecord = {
      id: input.id ?? newId('trn'),
      status: 'pending',
      progress: 0,
      audioAssetId: input.audioAssetId,
      source: input.source,
      ...(input.language ? { requestedLanguage: input.language } : {}),
      ...(input.prompt ? { prompt: input.prompt } : {}),
      ...(input.modelPath ? { modelPath: input.modelPath } : {}),
      ...(Object.keys(options).length ? { options } : {}),
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

  async function find(workspaceId: string, id: string): Promise<TranscriptRecord> {
    const record = await transcripts(workspaceId).get(id);
    if (!record) throw notFound('Transcript');
    return record;
  }

  /** Deletes the transcript and its audio asset; a running job is cancelled first. */
  async function remove(workspaceId: string, id: string): Promise<void> {
    const record = await find(workspaceId, id);
    await queue.abort(workspaceId, id);
    await transcripts(workspaceId).remove(id);
    queue.forget(workspaceId, record);
    await assets.remove(workspaceId, record.audioAssetId);
  }

  /**
   * For sync: stores a settled transcript made on another instance, never queued: a new one when `ifSeq` is 0, else
   * over the stored version `ifSeq` only. Undefined when that does not hold (it exists, or moved on).
   */
  async function putSynced(
    workspaceId: string,
    record: TranscriptRecord,
    ifSeq: number,
  ): Promise<TranscriptRecord | undefined> {
    if (ifSeq === 0)
      return transcripts(workspaceId)
        .insert(record)
        .catch((error) => {
          if ((error as Error).name === 'StoreConflict') return undefined;
          throw error;
        });
    const { id, ...fields } = record;
    const cleared = Object.fromEntries(SYNC_OPTIONAL_FIELDS.map((f) => [f, null]));
    return transcripts(workspaceId).update(id, { ...cleared, ...fields } as Patch<TranscriptRecord>, {
      if: { seq: ifSeq },
    });
  }

  /**
   * For sync: removes a settled transcript if it is still version `seq`. Its audio asset stays: it syncs as an
   * asset of its own, so an edit made to it elsewhere is never dropped along with the transcript.
   */
  const removeIf = (workspaceId: string, id: string, seq: number) =>
    transcripts(workspaceId).remove(id, { if: { seq, status: { in: ['completed', 'failed'] } } });

  async function retry(workspaceId: string, id: string): Promise<TranscriptRecord> {
    const record = await find(workspaceId, id);
    if (record.status !== 'pending' && record.status !== 'failed')
      throw conflict(`Only a pending or failed transcript can be retried; this one is ${record.status}`);
    const at = new Date().toISOString();
    const updated = await transcripts(workspaceId).update(
      id,
      {
        status: 'pending',
        progress: 0,
        error: null,
        model: await active.activeModelName(),
        device: null,
        updatedAt: at,
      },
      { if: { status: { in: ['pending', 'failed'] } } },
    );
    if (!updated) throw conflict('This transcript changed meanwhile; read it again');
    queue.kick();
    return updated;
  }

  /** pending → failed ("cancelled") at once; processing → the engine job is aborted, then failed. */
  async function cancel(workspaceId: string, id: string): Promise<TranscriptRecord> {
    const record = await find(workspaceId, id);
    if (record.status === 'completed' || record.status === 'failed')
      throw conflict(
        `Only a pending or processing transcript can be cancelled; this one is ${record.status}`,
      );
    if (!(await queue.abort(workspaceId, id))) await queue.cancelPending(workspaceId, id);
    return find(workspaceId, id);
  }

  /** Runs `into` with the space a received file may use; the file it writes is the caller's. */
  function receive<T>(into: (space: UploadSpace) => Promise<T>): Promise<T> {
    return into({ tmpDir: uploads.tmpDir, maxBytes: uploads.maxBytes });
  }

  /** POST /api/v1/transcribe: the received file (and every form field, before or after it) to a settled transcript. */
  async function transcribeUpload(
    workspaceId: string,
    into: (space: UploadSpace) => Promise<ReceivedFile>,
  ): Promise<Settled> {
    const received = await into({ tmpDir: uploads.tmpDir, maxBytes: uploads.transcribeMaxBytes });
    let options: StoredOptions;
    try {
      options = optionsFromForm(received.fields);
    } catch (error) {
      await rm(received.tmpPath, { force: true });
      throw error;
    }
    return transcribeFile(workspaceId, received, {
      source: 'transcribe',
      ...optionsFrom(received.fields),
      options,
    });
  }

  /** Makes the audio asset from a received temp file (taking ownership) and queues its transcript. */
  async function queueFile(
    workspaceId: string,
    file: ReceivedAudio,
    options: Omit<NewTranscript, 'audioAssetId'>,
  ): Promise<TranscriptRecord> {
    try {
      await assertCanTranslate(options.options ?? {}, options.modelPath ?? (await active.activePath()));
    } catch (error) {
      await rm(file.tmpPath, { force: true });
      throw error;
    }
    const asset = await assetFromFile(workspaceId, {
      path: file.tmpPath,
      filename: file.filename,
      sha256: file.sha256,
    }).catch(async (error) => {
      await rm(file.tmpPath, { force: true });
      throw error;
    });
    return create(workspaceId, { ...options, audioAssetId: asset.id });
  }

  /** queueFile, then waits for the result. */
  async function transcribeFile(
    workspaceId: string,
    file: ReceivedAudio,
    options: Omit<NewTranscript, 'audioAssetId'>,
  ): Promise<Settled> {
    const record = await queueFile(workspaceId, file, options);
    return queue.settled(workspaceId, record.id);
  }

  return {
    create,
    createCompleted,
    get: async (workspaceId: string, id: string) => presentTranscript(await find(workspaceId, id)),
    find,
    list: async (workspaceId: string, query: ListTranscriptsQuery) => {
      const page = await transcripts(workspaceId).list({
        where: query.status ? { status: query.status } : {},
        limit: query.limit,
        cursor: query.cursor,
      });
      return { data: page.rows.map(presentSummary), nextCursor: page.nextCursor };
    },
    remove,
    putSynced,
    removeIf,
    retry,
    cancel,
    receive,
    transcribeUpload,
    queueFile,
    transcribeFile,
    settled: queue.settled,
    settledReply,
    /** The transcript as SubRip, WebVTT, text or JSON (exports.ts), for other domains that write it out. */
    exportAs: exportTranscript,
    /** Start-up: re-queue interrupted jobs, then start the queue. */
    async start(): Promise<void> {
      await queue.recover();
      queue.start();
    },
    close: () => queue.stop(),
    /** Workspace deleted: its running job stops (its files go with the workspace directory). */
    async dropWorkspace(workspaceId: string): Promise<void> {
      for (const t of await transcripts(workspaceId).all({ status: 'processing' }))
        await queue.abort(workspaceId, t.id);
    },
    usage: async (workspaceId: string) => ({ count: await transcripts(workspaceId).count(), bytes: 0 }),
    /** What a change feed (sync) follows: the store's feed names a collection by its spec. */
    collection: transcriptsCollection,
  };
}

export type TranscriptService = ReturnType<typeof createTranscriptService>;

/** A temp file with the audio, named as the client named it. */
type ReceivedAudio = { tmpPath: string; filename: string; sha256?: string };

/** Optional fields a synced version clears when it does not carry them. */
const SYNC_OPTIONAL_FIELDS = [
  'error',
  'requestedLanguage',
  'prompt',
  'options',
  'modelPath',
  'language',
  'duration',
  'text',
  'segments',
  'words',
  'vad',
  'completedAt',
] as const;

function optionsFrom(fields: Record<string, string>): { language?: string; prompt?: string } {
  const language = fields.language?.trim() || undefined;
  const prompt = fields.prompt?.trim() || undefined;
  return { ...(language ? { language } : {}), ...(prompt ? { prompt } : {}) };
}
