// Group commit one level above the journal's: works that arrive while a workspace's unit is committing wait and then
// run together in its next unit, side by side, so a burst of writers (a sync push of many records) costs a few
// commits instead of one each. One unit holds all their writes, so a member that throws undoes every member's and
// each hears the error: give it only works that throw when storage fails, and answer expected refusals (a conflict)
// as values.
import type { Store, UnitOfWork } from './types.js';

type Member = {
  work: (tx: UnitOfWork) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

export function createUnitBatcher(store: Pick<Store, 'unitOfWork'>, { maxBatch = 64 } = {}) {
  const waiting = new Map<string, Member[]>();

  function run<R>(workspaceId: string, work: (tx: UnitOfWork) => Promise<R>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const queue = waiting.get(workspaceId);
      const member = { work, resolve: resolve as (value: unknown) => void, reject };
      if (queue) return void queue.push(member);
      waiting.set(workspaceId, [member]);
      void drain(workspaceId);
    });
  }

  async function drain(workspaceId: string): Promise<void> {
    const queue = waiting.get(workspaceId)!;
    while (queue.length > 0) await runBatch(workspaceId, queue.splice(0, maxBatch));
    waiting.delete(workspaceId);
  }

  async function runBatch(workspaceId: string, batch: Member[]): Promise<void> {
    try {
      const values = await store.unitOfWork(workspaceId, async (tx) => {
        const settled = await Promise.allSettled(batch.map((m) => m.work(tx)));
        const failed = settled.find((s) => s.status === 'rejected');
        if (failed) throw failed.reason;
        return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value);
      });
      for (const [i, m] of batch.entries()) m.resolve(values[i]);
    } catch (error) {
      for (const m of batch) m.reject(error);
    }
  }

  return { run };
}

export type UnitBatcher = ReturnType<typeof createUnitBatcher>;
