// The unit-of-work part of the storage contract (Store.unitOfWork): run by describeStoreContract for every backend.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { StoreConflict } from '../../../server/store/errors.js';
import { defineCollection, type Store } from '../../../server/store/types.js';
import type { StoreHandle } from './store-contract.js';

type Entry = { id: string; label: string; usedAt?: string | null; slug?: string };

const entries = defineCollection<Entry>({
  name: 'contract-unit-entries',
  scope: 'workspace',
  fields: { label: 'text', usedAt: 'text' },
  unique: ['slug'],
});
const links = defineCollection<{ id: string; entryId: string }>({
  name: 'contract-unit-links',
  scope: 'workspace',
  fields: { entryId: 'text' },
});

const WS = 'ws_unit';
const BLOB = `workspaces/${WS}/files/e1`;

class Interrupted extends Error {}

/** Everything the unit tests can see of the workspace: rows, the blob, and the feed. */
async function seen(store: Store) {
  const feed = await store.changes(WS, { since: 0, limit: 100 });
  return {
    entries: (await store.collection(entries, WS).all()).map(({ id, label, usedAt }) => ({
      id,
      label,
      usedAt,
    })),
    links: (await store.collection(links, WS).all()).map(({ id }) => id),
    blob: (await store.blobs.stat(BLOB))?.size,
    feed: feed.changes.map(({ collection, id }) => `${collection}/${id}`),
  };
}

export function describeUnitOfWorkContract(start: () => Promise<StoreHandle>) {
  describe('units of work', () => {
    it('commits rows of several collections and a blob together, in the feed and across a restart', async () => {
      const handle = await start();
      await handle.store.collection(entries, WS).insert({ id: 'e0', label: 'before' });
      const answer = await handle.store.unitOfWork(WS, async (tx) => {
        await tx.blobs.put(BLOB, Readable.from([Buffer.from('bytes')]));
        await tx.collection(entries).insert({ id: 'e1', label: 'one' });
        await tx.collection(links).insert({ id: 'l1', entryId: 'e1' });
        await tx.collection(entries).update('e0', { label: 'after' });
        expect(await tx.collection(entries).get('e1')).toMatchObject({ label: 'one' }); // sees its own writes
        return 'done';
      });
      expect(answer).toBe('done');
      const committed = {
        entries: [
          { id: 'e0', label: 'after', usedAt: undefined },
          { id: 'e1', label: 'one', usedAt: undefined },
        ],
        links: ['l1'],
        blob: 5,
        feed: [`${entries.name}/e1`, `${links.name}/l1`, `${entries.name}/e0`],
      };
      expect(await seen(handle.store)).toEqual(committed);
      expect(await seen(await handle.reopen())).toEqual(committed);
      const later = await handle.store.collection(links, WS).insert({ id: 'l2', entryId: 'e0' });
      expect(later.seq).toBeGreaterThan(3);
    });

    it('leaves none of its rows or blobs when its work throws in the middle, before and after a restart', async () => {
      const handle = await start();
      await handle.store.collection(entries, WS).insert({ id: 'e0', label: 'before' });
      const before = await seen(handle.store);
      const failed = handle.store.unitOfWork(WS, async (tx) => {
        await tx.collection(entries).insert({ id: 'e1', label: 'one', slug: 'kept-back' });
        await tx.blobs.put(BLOB, Buffer.from('bytes'));
        await tx.collection(entries).update('e0', { label: 'changed' });
        await tx.collection(entries).remove('e0');
        await tx.collection(links).insert({ id: 'l1', entryId: 'e1' });
        throw new Interrupted('killed in the middle');
      });
      await expect(failed).rejects.toBeInstanceOf(Interrupted);
      expect(await seen(handle.store)).toEqual(before);
      expect(await handle.store.lookup(entries, 'slug', 'kept-back')).toBeUndefined();
      expect(await seen(await handle.reopen())).toEqual(before);
      await handle.store.collection(entries, WS).insert({ id: 'e2', label: 'free', slug: 'kept-back' });
    });

    it('leaves a blob it disowned in place when it fails, and deletes the rest it put', async () => {
      const { store } = await start();
      const other = `workspaces/${WS}/files/e2`;
      const failed = store.unitOfWork(WS, async (tx) => {
        await tx.blobs.put(BLOB, Buffer.from('theirs'));
        await tx.blobs.put(other, Buffer.from('ours'));
        tx.blobs.disown(BLOB);
        throw new Interrupted('a neighbour failed');
      });
      await expect(failed).rejects.toBeInstanceOf(Interrupted);
      expect((await store.blobs.stat(BLOB))?.size).toBe(6);
      expect(await store.blobs.stat(other)).toBeUndefined();
    });

    it('conflicts inside as outside: a conditional write that lost answers undefined, a taken value throws, the unit goes on', async () => {
      const { store } = await start();
      const outside = store.collection(entries, WS);
      await outside.insert({ id: 'e0', label: 'grant', usedAt: null });
      await outside.insert({ id: 'e9', label: 'other', slug: 'taken' });
      await outside.update('e0', { usedAt: 'elsewhere' }, { if: { usedAt: null } });
      await store.unitOfWork(WS, async (tx) => {
        expect(await tx.collection(entries).update('e0', { usedAt: 'here' }, { if: { usedAt: null } })).toBe(
          undefined,
        );
        await expect(
          tx.collection(entries).insert({ id: 'e1', label: 'x', slug: 'taken' }),
        ).rejects.toBeInstanceOf(StoreConflict);
        await expect(tx.collection(entries).insert({ id: 'e9', label: 'x' })).rejects.toBeInstanceOf(
          StoreConflict,
        );
        await tx.collection(entries).insert({ id: 'e1', label: 'x', slug: 'free' });
      });
      expect(await outside.get('e0')).toMatchObject({ usedAt: 'elsewhere' });
      expect(await outside.get('e1')).toMatchObject({ slug: 'free' });
    });

    it('goes on reading side by side with a write that conflicts: the conflict is that write’s alone', async () => {
      const { store } = await start();
      await store.collection(entries, WS).insert({ id: 'e9', label: 'other', slug: 'taken' });
      await store.unitOfWork(WS, async (tx) => {
        const refused = tx.collection(entries).insert({ id: 'e1', label: 'x', slug: 'taken' });
        let writing = true;
        refused.catch(() => (writing = false));
        const reads: Promise<unknown>[] = [];
        while (writing) {
          reads.push(tx.collection(entries).get('e9'), tx.collection(entries).count());
          await new Promise((resolve) => setImmediate(resolve));
        }
        await expect(refused).rejects.toBeInstanceOf(StoreConflict);
        const answers = await Promise.allSettled(reads);
        expect(answers.filter((a) => a.status === 'rejected').map((a) => `${a.reason}`)).toEqual([]);
        const values = answers.map((a) => JSON.stringify((a as PromiseFulfilledResult<unknown>).value));
        expect(new Set(values)).toEqual(
          new Set([JSON.stringify(await store.collection(entries, WS).get('e9')), '1']),
        );
        await tx.collection(entries).insert({ id: 'e1', label: 'x', slug: 'free' });
      });
      expect(await store.collection(entries, WS).get('e1')).toMatchObject({ slug: 'free' });
    });

    it('makes of two units racing on one conditional write exactly one the winner', async () => {
      const { store } = await start();
      await store.collection(entries, WS).insert({ id: 'e0', label: 'grant', usedAt: null });
      const claims = await Promise.all(
        ['a', 'b', 'c', 'd'].map((who) =>
          store.unitOfWork(WS, async (tx) => {
            const claimed = await tx
              .collection(entries)
              .update('e0', { usedAt: who }, { if: { usedAt: null } });
            if (claimed) await tx.collection(links).insert({ id: `l-${who}`, entryId: 'e0' });
            return Boolean(claimed);
          }),
        ),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
      const winner = (await store.collection(entries, WS).get('e0'))?.usedAt;
      expect((await store.collection(links, WS).all()).map((l) => l.id)).toEqual([`l-${winner}`]);
    });

    it('holds an outside write to a row it wrote until it has committed', async () => {
      const { store } = await start();
      const outside = store.collection(entries, WS);
      await outside.insert({ id: 'e0', label: 'start' });
      let waiting: Promise<unknown> | undefined;
      let settled = false;
      await store.unitOfWork(WS, async (tx) => {
        await tx.collection(entries).update('e0', { label: 'unit' });
        waiting = outside.update('e0', { usedAt: 'outside' }).finally(() => {
          settled = true;
        });
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(settled).toBe(false);
      });
      expect(await waiting).toMatchObject({ label: 'unit', usedAt: 'outside' });
    });
  });
}
