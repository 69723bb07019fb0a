/** A running job's progress, written to its row at most every 5 points or once a second, while it holds the lease. */
import type { JobLeases } from './job-lease.js';

export function throttledProgress(leases: JobLeases, workspaceId: string, id: string) {
  let written = 0;
  let last = 0;
  let writing: Promise<unknown> = Promise.resolve();
  return {
    report(percent: number) {
      const value = Math.min(99, Math.max(0, Math.floor(percent))); // 100 is written with the result
      if (value <= written || (value - written < 5 && Date.now() - last < 1000)) return;
      written = value;
      last = Date.now();
      // Best effort, and never left rejected: nothing may await it for minutes, and an unheard rejection (the
      // store unreachable for a moment) would end the process. The result's write says how the job ended.
      writing = writing
        .then(() =>
          leases.writeHeld(workspaceId, id, { progress: value, updatedAt: new Date().toISOString() }),
        )
        .catch(() => undefined);
    },
    flushed: () => writing,
  };
}
