/**
 * Waiting for a transcript to settle (completed or failed). A job this node runs wakes its waiters; with `pollMs`
 * (many nodes) the row is also read again, for jobs another node runs.
 */
import type { Store } from '../../store/types.js';
import { transcriptsCollection } from './collections.js';
import { jobKey, type Settled } from './job.js';
import type { TranscriptRecord } from './schema.js';

export function createSettledWaiters({ store, pollMs }: { store: Store; pollMs?: number }) {
  const waiters = new Map<string, Array<(settled: Settled) => void>>();
  const transcripts = (workspaceId: string) => store.collection(transcriptsCollection, workspaceId);

  /** Wakes everyone waiting on this transcript. */
  function settle(workspaceId: string, settled: Settled): void {
    const key = jobKey(workspaceId, settled.transcript.id);
    for (const resolve of waiters.get(key) ?? []) resolve(settled);
    waiters.delete(key);
  }

  /** Resolves when the transcript is completed or failed (at once if it already is). */
  async function settled(workspaceId: string, id: string): Promise<Settled> {
    const key = jobKey(workspaceId, id);
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
        // settled meanwhile by this node, whose wake carries the cause (the status of what failed it), so a job that
        // fails before this read is answered as the failure asks (503 for no model), not as a bare row (422)
        if (row.status === 'completed' || row.status === 'failed')
          return (await Promise.race([waiting, Promise.resolve(undefined)])) ?? { transcript: row };
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

  /** Wakes anyone waiting on a transcript that is being deleted. */
  function forget(workspaceId: string, transcript: TranscriptRecord): void {
    settle(workspaceId, { transcript: { ...transcript, status: 'failed', error: 'deleted' } });
  }

  return { settle, settled, forget };
}

const delay = (ms: number) => new Promise<undefined>((resolve) => setTimeout(resolve, ms));
