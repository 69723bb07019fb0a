/**
 * Which node holds a processing transcript, and until when. A job is taken by one conditional write (pending →
 * processing) that names the node and a lease, which the node renews while the job runs; every write the job makes
 * afterwards is conditional on still holding it, so of several nodes sharing one store exactly one runs and
 * finishes each job. A row whose lease ran out (its node died) goes back to pending; at start a node also takes
 * back its own.
 */
import type { Logger } from '../../log.js';
import type { Patch, Store } from '../../store/types.js';
import { transcriptsCollection } from './collections.js';
import type { TranscriptRecord } from './schema.js';

export interface JobLeaseDeps {
  store: Store;
  /** This node's name in the jobs it holds (config.nodeId). */
  node: string;
  /** How long a job stays held without a renewal. */
  leaseMs: number;
  log: Logger;
}

export function createJobLeases({ store, node, leaseMs, log }: JobLeaseDeps) {
  const transcripts = (workspaceId: string) => store.collection(transcriptsCollection, workspaceId);
  const leaseEnd = () => new Date(Date.now() + leaseMs).toISOString();
  /** Where a write of a job's own must still find it: processing, held by this node. */
  const held = { status: 'processing', node } as const;

  /** pending → processing, held by this node; undefined when it was cancelled, deleted or taken elsewhere. */
  function claim(workspaceId: string, id: string): Promise<TranscriptRecord | undefined> {
    return transcripts(workspaceId).update(
      id,
      { status: 'processing', progress: 0, error: null, updatedAt: now(), node, leaseUntil: leaseEnd() },
      { if: { status: 'pending' } },
    );
  }

  /** A write of the job's own: undefined when this node no longer holds it. */
  function writeHeld(workspaceId: string, id: string, patch: Patch<TranscriptRecord>) {
    return transcripts(workspaceId).update(id, patch, { if: held });
  }

  /** Renews the job's lease while it runs; if the row no longer names this node, `onLost` runs (once). */
  function renew(workspaceId: string, id: string, onLost: () => void) {
    let lost = false;
    const timer = setInterval(async () => {
      const renewed = await writeHeld(workspaceId, id, { leaseUntil: leaseEnd() }).catch(
        () => 'unknown' as const, // the store is unreachable: keep running, the lease says who owns it
      );
      if (renewed !== undefined) return;
      lost = true;
      clearInterval(timer);
      onLost();
    }, leaseMs / 3);
    timer.unref();
    return { stop: () => clearInterval(timer), lost: () => lost };
  }

  /**
   * Jobs whose node is gone go back to pending: a lease that ran out, or (at start) one this node held before it
   * restarted. Conditional on the lease read, so a job whose node renewed it meanwhile stays where it is.
   */
  async function recover(startup: boolean, isRunning: (workspaceId: string, id: string) => boolean) {
    const at = now();
    for (const workspaceId of await store.workspacesWith(transcriptsCollection, { status: 'processing' })) {
      for (const t of await transcripts(workspaceId).all({ status: 'processing' })) {
        const ownBefore = startup && t.node === node && !isRunning(workspaceId, t.id);
        const expired = !t.leaseUntil || t.leaseUntil < at;
        if (!ownBefore && !expired) continue;
        const requeued = await transcripts(workspaceId).update(
          t.id,
          { status: 'pending', progress: 0, node: null, leaseUntil: null, updatedAt: now() },
          { if: { status: 'processing', node: t.node ?? null, leaseUntil: t.leaseUntil ?? null } },
        );
        if (requeued && !startup)
          log.warn(
            `Transcription queue: ${t.id} was held by ${t.node}, which stopped renewing it; re-queued`,
          );
      }
    }
  }

  return { claim, writeHeld, renew, recover };
}

export type JobLeases = ReturnType<typeof createJobLeases>;

const now = () => new Date().toISOString();
