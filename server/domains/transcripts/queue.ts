/**
 * The persistent transcription queue. The transcripts collection *is* the queue: pending rows run oldest first,
 * `concurrency` at a time, each taken by one conditional write (pending → processing) that names the node and a
 * lease, which the node renews while the job runs. Every write a job makes afterwards is conditional on still
 * holding it, so of several nodes sharing one store exactly one runs and finishes each job. A row whose lease ran
 * out (its node died) goes back to pending; at start a node also takes back its own. Closing hands running jobs
 * back as pending. With `pollMs` (many nodes) each node also looks for work and for results other nodes made.
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
  /** This node's name in the jobs it holds (config.nodeId). */
  node?: string;
  /** How long a job stays held without a renewal. */
  leaseMs?: number;
  /** Look for work, expired leases and results this often; undefined: only this process queues (desktop). */
  pollMs?: number;
}

export interface Settled {
  transcript: TranscriptRecord;
  /** The error that failed it, for callers that map it to an HTTP status. */
  cause?: unknown;
}

type Running = { controller: AbortController; done: Promise<void> };

export function createTranscriptQueue({
  store,
  run,
  concurrency = 1,
  log = () => {},
  node = 'local',
  leaseMs = 30_000,
  pollMs,
}: QueueDeps) {
  const running = new Map<string, Running>(); // by "<workspaceId>/<id>"
  const waiters = new Map<string, Array<(settled: Settled) => void>>();
  let stopped = false;
  let filling: Promise<void> = Promise.resolve();
  let poller: NodeJS.Timeout | undefined;
  const transcripts = (workspaceId: string) => store.collection(transcriptsCollection, workspaceId);
  const keyOf = (workspaceId: string, id: string) => `${workspaceId}/${id}`;
  const leaseEnd = () => new Date(Date.now() + leaseMs).toISOString();
  /** Where a write of a job's own must still find it: processing, held by this node. */
  const held = { status: 'processing', node } as const;

  /**
   * Jobs whose node is gone go back to pending: a lease that ran out, or (at start) one this node held before it
   * restarted. Conditional on the lease read, so a job whose node renewed it meanwhile stays where it is.
   */
  async function recover(startup = true): Promise<void> {
    const at = now();
    for (const workspaceId of await store.workspacesWith(transcriptsCollection, { status: 'processing' })) {
      for (const t of await transcripts(workspaceId).all({ status: 'processing' })) {
        const ownBefore = startup && t.node === node && !running.has(keyOf(workspaceId, t.id));
        const expired = !t.leaseUntil || t.leaseUntil < at;
        if (!ownBefore && !expired) continue;
        const requeued = await transcripts(workspaceId).update(
          t.id,
          { status: 'pending', progress: 0, node: null, leaseUntil: null, updatedAt: now() },
          { if: { status: 'processing', node: t.node ?? null, leaseUntil: t.leaseUntil ?? null } },
        );
        if (requeued && !startup)
          log(`Transcription queue: ${t.id} was held by ${t.node}, which stopped renewing it; re-queued`);
      }
    }
  }

  /** Start-up: re-queue interrupted jobs first, then fill; with `pollMs`, keep looking for work other nodes queue. */
  function start(): void {
    kick();
    if (!pollMs || poller) return;
    let lastRecovery = Date.now();
    poller = setInterval(() => {
      if (stopped) return;
      if (Date.now() - lastRecovery >= Math.min(leaseMs / 2, 10_000)) {
        lastRecovery = Date.now();
        recover(false).catch((error) => log(`Transcription queue: ${(error as Error).message}`));
      }
      kick();
    }, pollMs);
    poller.unref();
  }

  async function nextPending(): Promise<{ workspaceId: string; transcript: TranscriptRecord } | undefined> {
    let best: { workspaceId: string; transcript: TranscriptRecord } | undefined;
    for (const workspaceId of await store.workspacesWith(transcriptsCollection, { status: 'pending' })) {
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
      launch(next.workspaceId, next.transcript);
    }
  }

  function launch(workspaceId: string, transcript: TranscriptRecord): void {
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
      { status: 'processing', progress: 0, error: null, updatedAt: now(), node, leaseUntil: leaseEnd() },
      { if: { status: 'pending' } },
    );
    if (!taken) return; // cancelled, deleted or taken elsewhere since it was picked
    const lease = renewLease(workspaceId, transcript.id);
    const progress = throttledProgress(workspaceId, transcript.id);
    const released = { node: null, leaseUntil: null };
    try {
      const result = await run({ workspaceId, transcript: taken, signal, progress: progress.report });
      await progress.flushed();
      lease.stop();
      const at = now();
      const done = await rows.update(
        transcript.id,
        {
          ...result,
          ...released,
          status: 'completed',
          progress: 100,
          error: null,
          updatedAt: at,
          completedAt: at,
        },
        { if: held },
      );
      if (done) settle(workspaceId, { transcript: done });
    } catch (error) {
      await progress.flushed();
      lease.stop();
      if (lease.lost()) return; // cancelled, deleted or re-queued elsewhere: not ours to write any more
      if (stopped && signal.aborted) {
        // closing: hand it back, so another node (or this one's next start) runs it
        await rows.update(
          transcript.id,
          { ...released, status: 'pending', progress: 0, updatedAt: now() },
          { if: held },
        );
        return;
      }
      const message = signal.aborted ? 'cancelled' : messageOf(error);
      const failed = await rows.update(
        transcript.id,
        { ...released, status: 'failed', error: message, updatedAt: now() },
        { if: held },
      );
      if (failed) settle(workspaceId, { transcript: failed, cause: signal.aborted ? undefined : error });
    }
  }

  /** Renews the job's lease while it runs; if the row no longer names this node, the job is aborted here. */
  function renewLease(workspaceId: string, id: string) {
    let lost = false;
    const timer = setInterval(async () => {
      const renewed = await transcripts(workspaceId)
        .update(id, { leaseUntil: leaseEnd() }, { if: held })
        .catch(() => 'unknown' as const); // the store is unreachable: keep running, the lease says who owns it
      if (renewed !== undefined) return;
      lost = true;
      clearInterval(timer);
      running.get(keyOf(workspaceId, id))?.controller.abort();
    }, leaseMs / 3);
    timer.unref();
    return { stop: () => clearInterval(timer), lost: () => lost };
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
          transcripts(workspaceId).update(id, { progress: value, updatedAt: now() }, { if: held }),
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

  /**
   * Resolves when the transcript is completed or failed (at once if it already is). A job this node runs wakes
   * the waiter; with `pollMs` the row is also read again, for jobs another node runs.
   */
  async function settled(workspaceId: string, id: string): Promise<Settled> {
    const key = keyOf(workspaceId, id);
    let wake: (settled: Settled) => void = () => {};
    // Registered before the read, so a job that settles while we look cannot be missed.
    const waiting = new Promise<Settled>((resolve) => {
      wake = resolve;
      waiters.set(key, [...(waiters.get(key) ?? []), resolve]);
    });
    try {
      let last: TranscriptRecord | undefined;
      for (;;) {
        const row = await transcripts(workspaceId).get(id);
        if (!row && last) return { transcript: { ...last, status: 'failed', error: 'deleted' } };
        if (!row) throw new Error(`transcript ${id} is gone`);
        if (row.status === 'completed' || row.status === 'failed') return { transcript: row };
        if (!pollMs) return await waiting;
        last = row;
        const woken = await Promise.race([waiting, delay(Math.min(pollMs, 250))]);
        if (woken) return woken;
      }
    } finally {
      const left = (waiters.get(key) ?? []).filter((w) => w !== wake);
      if (left.length) waiters.set(key, left);
      else waiters.delete(key);
    }
  }

  /** Aborts a running job; resolves once it has settled. False when it was not running. */
  async function abort(workspaceId: string, id: string): Promise<boolean> {
    const job = running.get(keyOf(workspaceId, id));
    if (!job) return false;
    job.controller.abort();
    await job.done;
    return true;
  }

  /**
   * Fails a job this node is not running as cancelled: a pending one, or one another node runs (that node sees
   * the row change when it next renews its lease, and stops).
   */
  async function cancelPending(workspaceId: string, id: string): Promise<TranscriptRecord | undefined> {
    const failed = await transcripts(workspaceId).update(
      id,
      { status: 'failed', error: 'cancelled', node: null, leaseUntil: null, updatedAt: now() },
      { if: { status: { in: ['pending', 'processing'] } } },
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
    clearInterval(poller);
    const jobs = [...running.values()];
    for (const job of jobs) job.controller.abort();
    await Promise.all(jobs.map((job) => job.done));
  }

  return {
    recover,
    start,
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
const delay = (ms: number) => new Promise<undefined>((resolve) => setTimeout(resolve, ms));
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
