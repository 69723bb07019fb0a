/**
 * The persistent transcription queue. The transcripts collection *is* the queue: pending rows run oldest first,
 * `concurrency` at a time, each taken by one conditional write (pending → processing). A row left `processing` by
 * a server that died is put back to pending at start. Closing the server aborts the running job without failing
 * it, so the next start picks it up again.
 */
import type { Store } from '../../store/types.js';
import { transcriptsCollection } from './collections.js';
import type { TranscriptRecord } from './schema.js';

export type JobResult = Partial<
  Pick<TranscriptRecord, 'language' | 'duration' | 'text' | 'segments' | 'words' | 'model'>
>;

export interface JobContext {
  workspaceId: string;
  transcript: TranscriptRecord;
  signal: AbortSignal;
  /** Records progress (0..100); writes are throttled. */
  progress(percent: number): void;
}

export interface QueueDeps {
  store: Store;
  run(job: JobContext): Promise<JobResult>;
  concurrency?: number;
  log?: (line: string) => void;
}

export interface Settled {
  transcript: TranscriptRecord;
  /** The error that failed it, for callers that map it to an HTTP status. */
  cause?: unknown;
}

type Running = { controller: AbortController; done: Promise<void> };

export function createTranscriptQueue({ store, run, concurrency = 1, log = () => {} }: QueueDeps) {
  const running = new Map<string, Running>(); // by "<workspaceId>/<id>"
  const waiters = new Map<string, Array<(settled: Settled) => void>>();
  let stopped = false;
  let filling: Promise<void> = Promise.resolve();
  const transcripts = (workspaceId: string) => store.collection(transcriptsCollection, workspaceId);
  const keyOf = (workspaceId: string, id: string) => `${workspaceId}/${id}`;

  /** Start-up: jobs interrupted by a crash or a close go back to pending. */
  async function recover(): Promise<void> {
    for (const workspaceId of await store.workspacesWith(transcriptsCollection)) {
      for (const t of await transcripts(workspaceId).all({ status: 'processing' }))
        await transcripts(workspaceId).update(t.id, { status: 'pending', progress: 0, updatedAt: now() });
    }
  }

  async function nextPending(): Promise<{ workspaceId: string; transcript: TranscriptRecord } | undefined> {
    let best: { workspaceId: string; transcript: TranscriptRecord } | undefined;
    for (const workspaceId of await store.workspacesWith(transcriptsCollection)) {
      const oldest = await transcripts(workspaceId).list({
        where: { status: 'pending' },
        orderBy: [['createdAt', 'asc']],
        limit: concurrency + 1,
      });
      const t = oldest.rows.find((row) => !running.has(keyOf(workspaceId, row.id)));
      if (t && (!best || t.createdAt < best.transcript.createdAt)) best = { workspaceId, transcript: t };
    }
    return best;
  }

  /** Fills free slots with pending jobs; call after anything becomes pending. Fills run one at a time. */
  function kick(): void {
    filling = filling.then(fill).catch((error) => log(`Transcription queue: ${(error as Error).message}`));
  }

  async function fill(): Promise<void> {
    while (!stopped && running.size < concurrency) {
      const next = await nextPending();
      if (!next || stopped) return;
      start(next.workspaceId, next.transcript);
    }
  }

  function start(workspaceId: string, transcript: TranscriptRecord): void {
    const key = keyOf(workspaceId, transcript.id);
    const controller = new AbortController();
    const done = execute(workspaceId, transcript, controller.signal)
      .catch((error) => log(`Transcription queue: ${(error as Error).message}`))
      .finally(() => {
        running.delete(key);
        kick();
      });
    running.set(key, { controller, done });
  }

  async function execute(
    workspaceId: string,
    transcript: TranscriptRecord,
    signal: AbortSignal,
  ): Promise<void> {
    const rows = transcripts(workspaceId);
    const taken = await rows.update(
      transcript.id,
      { status: 'processing', progress: 0, error: null, updatedAt: now() },
      { if: { status: 'pending' } },
    );
    if (!taken) return; // cancelled, deleted or taken elsewhere since it was picked
    const progress = throttledProgress(workspaceId, transcript.id);
    try {
      const result = await run({ workspaceId, transcript: taken, signal, progress: progress.report });
      await progress.flushed();
      const at = now();
      const done = await rows.update(transcript.id, {
        ...result,
        status: 'completed',
        progress: 100,
        error: null,
        updatedAt: at,
        completedAt: at,
      });
      if (done) settle(workspaceId, { transcript: done });
    } catch (error) {
      await progress.flushed();
      if (stopped && signal.aborted) return; // closing: leave it processing; recover() re-queues it
      const message = signal.aborted ? 'cancelled' : messageOf(error);
      const failed = await rows.update(transcript.id, { status: 'failed', error: message, updatedAt: now() });
      if (failed) settle(workspaceId, { transcript: failed, cause: signal.aborted ? undefined : error });
    }
  }

  function throttledProgress(workspaceId: string, id: string) {
    let written = 0;
    let last = 0;
    let writing: Promise<unknown> = Promise.resolve();
    return {
      report(percent: number) {
        const value = Math.min(99, Math.max(0, Math.floor(percent))); // 100 is written with the result
        if (value <= written || (value - written < 5 && Date.now() - last < 1000)) return;
        written = value;
        last = Date.now();
        writing = writing.then(() =>
          transcripts(workspaceId).update(
            id,
            { progress: value, updatedAt: now() },
            { if: { status: 'processing' } },
          ),
        );
      },
      flushed: () => writing.catch(() => undefined),
    };
  }

  function settle(workspaceId: string, settled: Settled): void {
    const key = keyOf(workspaceId, settled.transcript.id);
    for (const resolve of waiters.get(key) ?? []) resolve(settled);
    waiters.delete(key);
  }

  /** Resolves when the transcript is completed or failed (at once if it already is). */
  async function settled(workspaceId: string, id: string): Promise<Settled> {
    const key = keyOf(workspaceId, id);
    let wake: (settled: Settled) => void = () => {};
    // Registered before the read, so a job that settles while we look cannot be missed.
    const waiting = new Promise<Settled>((resolve) => {
      wake = resolve;
      waiters.set(key, [...(waiters.get(key) ?? []), resolve]);
    });
    const row = await transcripts(workspaceId).get(id);
    if (row && row.status !== 'completed' && row.status !== 'failed') return waiting;
    const left = (waiters.get(key) ?? []).filter((w) => w !== wake);
    if (left.length) waiters.set(key, left);
    else waiters.delete(key);
    if (!row) throw new Error(`transcript ${id} is gone`);
    return { transcript: row };
  }

  /** Aborts a running job; resolves once it has settled. False when it was not running. */
  async function abort(workspaceId: string, id: string): Promise<boolean> {
    const job = running.get(keyOf(workspaceId, id));
    if (!job) return false;
    job.controller.abort();
    await job.done;
    return true;
  }

  /** Fails a pending (not running) job as cancelled. */
  async function cancelPending(workspaceId: string, id: string): Promise<TranscriptRecord | undefined> {
    const failed = await transcripts(workspaceId).update(
      id,
      { status: 'failed', error: 'cancelled', updatedAt: now() },
      { if: { status: 'pending' } },
    );
    if (failed) settle(workspaceId, { transcript: failed });
    return failed;
  }

  /** Wakes anyone waiting on a transcript that is being deleted. */
  function forget(workspaceId: string, transcript: TranscriptRecord): void {
    settle(workspaceId, { transcript: { ...transcript, status: 'failed', error: 'deleted' } });
  }

  async function stop(): Promise<void> {
    stopped = true;
    const jobs = [...running.values()];
    for (const job of jobs) job.controller.abort();
    await Promise.all(jobs.map((job) => job.done));
  }

  return {
    recover,
    kick,
    settled,
    abort,
    cancelPending,
    forget,
    stop,
    isRunning: (workspaceId: string, id: string) => running.has(keyOf(workspaceId, id)),
  };
}

export type TranscriptQueue = ReturnType<typeof createTranscriptQueue>;

const now = () => new Date().toISOString();
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
