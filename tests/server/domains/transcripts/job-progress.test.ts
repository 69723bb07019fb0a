// A running job's progress writes: throttled, and best effort. A write that fails (the store unreachable for a
// moment) is dropped without an unheard rejection, which would end the process while the job goes on.
import { describe, expect, it } from 'vitest';
import type { JobLeases } from '../../../../server/domains/transcripts/job-lease.js';
import { throttledProgress } from '../../../../server/domains/transcripts/job-progress.js';

function leases(write: (progress: number) => Promise<unknown>): JobLeases {
  return {
    writeHeld: (_workspaceId: string, _id: string, change: { progress: number }) => write(change.progress),
  } as unknown as JobLeases;
}

describe('job progress', () => {
  it('writes every 5 points at most, and 99 at the most', async () => {
    const written: number[] = [];
    const progress = throttledProgress(
      leases(async (p) => written.push(p)),
      'ws',
      'tr',
    );
    for (const p of [1, 2, 7, 8, 30, 100]) progress.report(p);
    await progress.flushed();
    expect(written).toEqual([1, 7, 30, 99]);
  });

  it('drops a write that fails and goes on with the next, with nothing left rejected', async () => {
    const written: number[] = [];
    let fail = true;
    const progress = throttledProgress(
      leases(async (p) => {
        if (fail) throw new Error('connection terminated unexpectedly');
        written.push(p);
      }),
      'ws',
      'tr',
    );
    progress.report(10);
    // the failed write settles here, with no one awaiting it yet: an unheard rejection fails this test run
    await new Promise((resolve) => setTimeout(resolve, 20));
    fail = false;
    progress.report(50);
    await progress.flushed();
    expect(written).toEqual([50]);
  });
});
