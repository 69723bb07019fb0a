/**
 * One job from pending to its outcome: take it, run it with its lease renewed and its progress written, then write
 * completed or failed, or hand it back as pending when the queue is closing. Every write after the take is
 * conditional on still holding the lease (job-lease.ts).
 */
import type { JobContext, JobResult, Settled } from './job.js';
import type { JobLeases } from './job-lease.js';
import { throttledProgress } from './job-progress.js';
import type { TranscriptRecord } from './schema.js';

export interface RunJobDeps {
  leases: JobLeases;
  run(job: JobContext): Promise<JobResult>;
  /** Wakes whoever waits on the transcript. */
  settle(workspaceId: string, settled: Settled): void;
  /** True once the queue is closing: an aborted job is then handed back, not failed. */
  stopping(): boolean;
}

export async function runJob(
  { leases, run, settle, stopping }: RunJobDeps,
  workspaceId: string,
  transcript: TranscriptRecord,
  controller: AbortController,
): Promise<void> {
  const { signal } = controller;
  const taken = await leases.claim(workspaceId, transcript.id);
  if (!taken) return; // cancelled, deleted or taken elsewhere since it was picked
  const lease = leases.renew(workspaceId, transcript.id, () => controller.abort());
  const progress = throttledProgress(leases, workspaceId, transcript.id);
  const write = (patch: Parameters<JobLeases['writeHeld']>[2]) =>
    leases.writeHeld(workspaceId, transcript.id, { ...patch, node: null, leaseUntil: null });
  try {
    const result = await run({ workspaceId, transcript: taken, signal, progress: progress.report });
    await progress.flushed();
    lease.stop();
    const at = now();
    const done = await write({
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
    lease.stop();
    if (lease.lost()) return; // cancelled, deleted or re-queued elsewhere: not ours to write any more
    if (stopping() && signal.aborted) {
      // closing: hand it back, so another node (or this one's next start) runs it
      await write({ status: 'pending', progress: 0, updatedAt: now() });
      return;
    }
    const message = signal.aborted ? 'cancelled' : messageOf(error);
    const failed = await write({ status: 'failed', error: message, updatedAt: now() });
    if (failed) settle(workspaceId, { transcript: failed, cause: signal.aborted ? undefined : error });
  }
}

const now = () => new Date().toISOString();
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
