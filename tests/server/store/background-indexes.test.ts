// The file backend builds its unique-key registries over several turns once the server serves
// (Store.prepareIndexes): what happens meanwhile must leave them as a build at once would.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../server/log.js';
import { openFileStore } from '../../../server/store/file/store.js';
import type { CollectionSpec, Row } from '../../../server/store/types.js';
import { notes } from './store-contract.js';

const note = (id: string, slug: string) => ({
  id,
  title: id,
  kind: 'k',
  tags: [],
  size: 1,
  createdAt: 'x',
  slug,
});

async function seeded(dir: string) {
  const store = await openFileStore({ dataDir: dir, fsync: false, log: silentLogger });
  // ws_b is loaded after ws_a and is large, so the build is still under way when a drop of ws_a ends.
  for (const [ws, count] of [
    ['ws_a', 2500],
    ['ws_b', 30_000],
  ] as const)
    await Promise.all(
      Array.from({ length: count }, (_, i) =>
        store.collection(notes, ws).insert(note(`n${i}`, `${ws}-${i}`)),
      ),
    );
  await store.close();
  return openFileStore({ dataDir: dir, fsync: false, log: silentLogger });
}

describe('unique keys built in the background', () => {
  it("a workspace dropped while they are built frees its slugs; the other workspace's still conflict", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'folio-bg-indexes-'));
    try {
      const store = await seeded(dir);
      const building = store.prepareIndexes?.([notes as unknown as CollectionSpec<Row>]);
      await store.dropWorkspace('ws_a');
      await building;
      const other = store.collection(notes, 'ws_c');
      await expect(other.insert(note('x1', 'ws_a-7'))).resolves.toMatchObject({ slug: 'ws_a-7' });
      await expect(other.insert(note('x2', 'ws_b-7'))).rejects.toMatchObject({ name: 'StoreConflict' });
      expect((await store.lookup(notes, 'slug', 'ws_b-29999'))?.workspaceId).toBe('ws_b');
      await store.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a write while they are built sees every row, and the finished build does not undo it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'folio-bg-indexes-'));
    try {
      const store = await seeded(dir);
      const building = store.prepareIndexes?.([notes as unknown as CollectionSpec<Row>]);
      await expect(store.collection(notes, 'ws_c').insert(note('x1', 'ws_b-2499'))).rejects.toMatchObject({
        name: 'StoreConflict',
      });
      await store.collection(notes, 'ws_c').insert(note('x2', 'fresh'));
      await building;
      await expect(store.collection(notes, 'ws_a').insert(note('x3', 'fresh'))).rejects.toMatchObject({
        name: 'StoreConflict',
      });
      await store.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
