// Directory syncs shared between writers (durable-file.ts): a caller is covered only by a sync that starts after it
// asked, and callers that ask while one is queued share it.
import { describe, expect, it } from 'vitest';
import { createDirSyncer } from '../../../server/store/file/durable-file.js';

function recorder() {
  const started: Array<{ dir: string; finish: () => void }> = [];
  const sync = (dir: string) =>
    new Promise<void>((resolve) => {
      started.push({ dir, finish: resolve });
    });
  return { started, sync };
}
const tick = () => new Promise((r) => setImmediate(r));

describe('shared directory syncs', () => {
  it('one sync for everyone who asked before it started; later callers wait for the next one', async () => {
    const { started, sync } = recorder();
    const shared = createDirSyncer(sync);
    const done: string[] = [];
    const first = shared('/d').then(() => done.push('first'));
    const second = shared('/d').then(() => done.push('second'));
    await tick();
    expect(started).toHaveLength(1);
    const third = shared('/d').then(() => done.push('third')); // asked while the first sync runs
    await tick();
    expect(started).toHaveLength(1);
    started[0].finish();
    await Promise.all([first, second]);
    await tick();
    expect(done).toEqual(['first', 'second']);
    expect(started).toHaveLength(2); // the third caller's own, started after the first finished
    started[1].finish();
    await third;
    expect(done).toEqual(['first', 'second', 'third']);
  });

  it('keeps directories apart and passes a failed sync on to its callers', async () => {
    const shared = createDirSyncer(async (dir) => {
      if (dir === '/bad') throw Object.assign(new Error('EIO'), { code: 'EIO' });
    });
    await expect(shared('/bad')).rejects.toThrow('EIO');
    await expect(shared('/good')).resolves.toBeUndefined();
    await expect(shared('/bad')).rejects.toThrow('EIO');
  });
});
