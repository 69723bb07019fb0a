/**
 * The persistent transcription queue. The transcripts collection *is* the queue: `concurrency` jobs at a time, each
 * held by this node under a lease (job-lease.ts) and run by run-job.ts. Workspaces take turns: the next job is the
 * oldest pending one of the workspace that has none running anywhere and was served longest ago, so one
 * workspace's long recordings cannot starve another's. Closing hands running jobs back as pending. With `pollMs`
 * (many nodes) each node also looks for work, for leases that ran out and for results other nodes made; a node
 * that cannot transcribe (`canRun`) leaves jobs to the nodes that can, taking one only once it has waited
 * `unclaimedMs`, so that it fails with the reason rather than waiting for ever.
 */
import { type Logger, silentLogger } from '../../log.js';
import type { Store } from '../../store/types.js';
import { transcriptsCollection } from './collections.js';
import { type JobContext, type JobResult, jobKey } from './job.js';
import { createJobLeases } from './job-lease.js';
import { runJob } from './run-job.js';
import type { TranscriptRecord } from './schema.js';
import { createSettledWaiters } from './settled-waiters.js';

export interface QueueDeps {
  store: Store;
  run(job: JobContext): Promise<JobResult>;
  concurrency?: number;
  log?: Logger;
  /** This node's name in the jobs it holds (config.nodeId). */
  node?: string;
  /** How long a job stays held without a renewal. */
  leaseMs?: number;
  /** Look for work, expired leases and results this often; undefined: only this process queues (desktop). */
  pollMs?: number;
  /** Whether this node can run a job now (a worker and a model); default yes. */
  canRun?: () => Promise<boolean>;
  /** How long a job waits for a node that can run it before one that cannot takes it (and fails it). */
  unclaimedMs?: number;
}

type Candidate = { workspaceId: string; transcript: TranscriptRecord; busy: boolean; turn: number };

/** Whether `a` goes before `b`: a workspace with nothing running, then the one served longest ago, then the older job. */
function goesFirst(a: Candidate, b: Candidate): boolean {
  if (a.busy !== b.busy) return !a.busy;
  if (a.turn !== b.turn) return a.turn < b.turn;
  return a.transcript.createdAt < b.transcript.createdAt;
}

type Running = { controller: AbortController; done: Promise<void> };

export function createTranscriptQueue({
  store,
  run,
  concurrency = 1,
  log = silentLogger,
  node = 'local',
  leaseMs = 30_000,
  pollMs,
  canRun = async () => true,
  unclaimedMs = 60_000,
}: QueueDeps) {
  const running = new Map<string, Running>(); // by jobKey
  const leases = createJobLeases({ store, node, leaseMs, log });
  const waiters = createSettledWaiters({ store, pollMs });
  let stopped = false;
  let filling: Promise<void> = Promise.resolve();
  let poller: NodeJS.Timeout | undefined;
  /** By workspace: the number of the start that last served it here (absent: never served). */
  const lastServed = new Map<string, number>();
  let starts = 0;
  const transcripts = (workspaceId: string) => store.collection(transcriptsCollection, workspaceId);
  const isRunning = (workspaceId: string, id: string) => running.has(jobKey(workspaceId, id));
  const logError = (error: unknown) => log.error(`Transcription queue: ${(error as Error).message}`, error);

  /** Jobs whose node is gone go back to pending (at start, also those this node held before it restarted). */
  const recover = (startup = true) => leases.recover(startup, isRunning);

  /** Start-up: re-queue interrupted jobs first, then fill; with `pollMs`, keep looking for work other nodes queue. */
  function start(): void {
    kick();
    if (!pollMs || poller) return;
    let lastRecovery = Date.now();
    poller = setInterval(() => {
      if (stopped) return;
      if (Date.now() - lastRecovery >= Math.min(leaseMs / 2, 10_000)) {
        lastRecovery = Date.now();
        recover(false).catch(logError);
      }
      kick();
    }, pollMs);
    poller.unref();
  }

  async function nextPending(): Promise<Candidate | undefined> {
    const waitedSince = (await canRun()) ? undefined : new Date(Date.now() - unclaimedMs).toISOString();
    const busy = new Set(await store.workspacesWith(transcriptsCollection, { status: 'processing' }));
    let best: Candidate | undefined;
    for (const workspaceId of await store.workspacesWith(transcriptsCollection, { status: 'pending' })) {
      const oldest = await transcripts(workspaceId).list({
        where: { status: 'pending' },
        orderBy: [['createdAt', 'asc']],
        limit: concurrency + 1,
      });
      const transcript = oldest.rows.find((row) => !isRunning(workspaceId, row.id));
      if (!transcript || (waitedSince && transcript.createdAt > waitedSince)) continue;
      const candidate = {
        workspaceId,
        transcript,
        busy: busy.has(workspaceId),
        turn: lastServed.get(workspaceId) ?? -1,
      };
      if (!best || goesFirst(candidate, best)) best = candidate;
    }
    return best;
  }

  /** Fills free slots with pending jobs; call after anything becomes pending. Fills run one at a time. */
  function kick(): void {
    filling = filling.then(fill).catch(logError);
  }

  async function fill(): Promise<void> {
    while (!stopped && running.size < concurrency) {
      const next = await nextPending();
      if (!next || stopped) return;
      launch(next.workspaceId, next.transcript);
    }
  }

  function launch(workspaceId: string, transcript: TranscriptRecord): void {
    const key = jobKey(workspaceId, transcript.id);
    lastServed.set(workspaceId, starts++);
    const controller = new AbortController();
    const deps = { leases, run, settle: waiters.settle, stopping: () => stopped };
    const done = runJob(deps, workspaceId, transcript, controller)
      .catch(logError)
      .finally(() => {
        running.delete(key);
        kick();
      });
    running.set(key, { controller, done });
  }

  /** Aborts a running job; resolves once it has settled. False when it was not running. */
  async function abort(workspaceId: string, id: string): Promise<boolean> {
    const job = running.get(jobKey(workspaceId, id));
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
      {
        status: 'failed',
        error: 'cancelled',
        node: null,
        leaseUntil: null,
        updatedAt: new Date().toISOString(),
      },
      { if: { status: { in: ['pending', 'processing'] } } },
    );
    if (failed) waiters.settle(workspaceId, { transcript: failed });
    return failed;
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
    settled: waiters.settled,
    abort,
    cancelPending,
    forget: waiters.forget,
    stop,
    isRunning,
  };
}

export type TranscriptQueue = ReturnType<typeof createTranscriptQueue>;
