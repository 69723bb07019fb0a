// The change feed on PostgreSQL where it goes beyond one process: two stores on one database (two nodes, each with
// its own pool) writing one workspace at once while a reader on a third follows `next`, a drop racing writes from
// both, and the seqs a database made before the feed existed gets when it is migrated.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { ScopeGone } from '../../../server/store/errors.js';
import { openPostgresStore } from '../../../server/store/postgres/store.js';
import { openS3Blobs } from '../../../server/store/s3/blobs.js';
import { defineCollection, type Store } from '../../../server/store/types.js';
import { createTestDatabase, testS3Settings } from '../../helpers/hosted/services.js';
import { notes } from './store-contract.js';

const tags = defineCollection<{ id: string; label: string }>({
  name: 'feed-tags',
  scope: 'workspace',
  fields: { label: 'text' },
});
const instanceRows = defineCollection<{ id: string; value: string }>({
  name: 'feed-instance',
  scope: 'instance',
  fields: { value: 'text' },
});

const note = (id: string, createdAt: string) => ({
  id,
  title: id,
  kind: 'k',
  tags: [],
  size: 1,
  createdAt,
});

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function database() {
  const db = await createTestDatabase();
  const tmpDir = await mkdtemp(join(tmpdir(), 'folio-feed-tmp-'));
  const s3 = await testS3Settings();
  const stores: Store[] = [];
  cleanups.push(async () => {
    for (const store of stores) await store.close();
    await db.drop();
    await rm(tmpDir, { recursive: true, force: true });
  });
  return {
    url: db.url,
    /** One node: a store with its own pool on the shared database. */
    async node(poolSize = 6): Promise<Store> {
      const blobs = await openS3Blobs({ ...s3, tmpDir });
      const store = await openPostgresStore({ url: db.url, blobs, blobBackend: 's3', tmpDir, poolSize });
      stores.push(store);
      return store;
    },
    async close(store: Store) {
      stores.splice(stores.indexOf(store), 1);
      await store.close();
    },
  };
}

describe('postgres change feed across nodes', () => {
  it('a reader following `next` never meets a change at or below what it saw while two nodes write at once', async () => {
    const { node } = await database();
    const nodes = [await node(), await node()];
    const reader = await node(2);
    const ids = Array.from({ length: 24 }, (_, i) => `n${i}`);
    const replica = new Map<string, number | null>();
    let since = 0;
    let pages = 0;
    let writing = true;
    const follow = async () => {
      const page = await reader.changes('ws_n', { since, limit: 9 });
      pages++;
      for (const change of page.changes) {
        // The guarantee: nothing at or below a seq already passed ever shows up later.
        expect(change.seq).toBeGreaterThan(since);
        if (change.row) expect(change.row.seq).toBe(change.seq);
        const previous = replica.get(change.id);
        if (typeof previous === 'number') expect(change.seq).toBeGreaterThan(previous);
        replica.set(change.id, change.row ? change.seq : null);
      }
      expect(page.next).toBeGreaterThanOrEqual(since);
      since = page.next;
      return page;
    };
    const polling = (async () => {
      while (writing) await follow();
    })();
    // 2 nodes x 10 writers x 30 writes over 24 rows in 2 collections: inserts, updates (some conditional on the
    // seq just read), removes.
    const acknowledged: number[] = [];
    await Promise.all(
      nodes.flatMap((store, n) =>
        Array.from({ length: 10 }, async (_, w) => {
          const c = store.collection(notes, 'ws_n');
          const t = store.collection(tags, 'ws_n');
          for (let i = 0; i < 30; i++) {
            const id = ids[(n * 13 + w * 7 + i * 5) % ids.length]!;
            if (i % 6 === 5) {
              acknowledged.push((await t.insert({ id: `t${n}-${w}-${i}`, label: id })).seq!);
              continue;
            }
            const current = await c.get(id);
            if (!current) {
              const row = await c.insert(note(id, `2026-01-01T00:00:${i}`)).catch(() => undefined);
              if (row) acknowledged.push(row.seq!);
            } else if (i % 5 === 4) await c.remove(id);
            else {
              const row = await c.update(id, { title: `${n}/${w}/${i}` }, { if: { seq: current.seq } });
              if (row) acknowledged.push(row.seq!);
            }
          }
        }),
      ),
    );
    writing = false;
    await polling;
    for (let page = await follow(); page.more; page = await follow());
    expect(pages).toBeGreaterThan(10);

    const head = (await reader.changes('ws_n', { since: 0, limit: 0 })).head;
    expect(since).toBe(head);
    expect(Math.max(...acknowledged)).toBeLessThanOrEqual(head);
    expect(new Set(acknowledged).size).toBe(acknowledged.length);
    const stored = new Map<string, number | null>();
    for (const row of await reader.collection(notes, 'ws_n').all()) stored.set(row.id, row.seq!);
    for (const row of await reader.collection(tags, 'ws_n').all()) stored.set(row.id, row.seq!);
    for (const id of ids) {
      if (stored.has(id)) continue;
      const tombstone = await reader.collection(notes, 'ws_n').tombstone(id);
      if (tombstone !== undefined) stored.set(id, null);
    }
    expect(replica).toEqual(stored);
  });

  it('a drop from one node wins over writes from both: nothing lands after it and its feed is gone', async () => {
    const { node } = await database();
    const [a, b] = [await node(), await node()];
    await a.collection(notes, 'ws_d').insert(note('first', 'x'));
    let refused = 0;
    const writers = [a, b].map(async (store, n) => {
      for (let i = 0; i < 40; i++) {
        try {
          await store.collection(notes, 'ws_d').insert(note(`w${n}-${i}`, 'x'));
        } catch (error) {
          expect(error).toBeInstanceOf(ScopeGone);
          refused++;
        }
      }
    });
    await new Promise((r) => setTimeout(r, 20));
    await b.dropWorkspace('ws_d');
    await Promise.all(writers);
    expect(refused).toBeGreaterThan(0);
    expect(await a.collection(notes, 'ws_d').count()).toBe(0);
    expect(await b.changes('ws_d', { since: 0, limit: 100 })).toEqual({
      changes: [],
      next: 0,
      more: false,
      head: 0,
    });
    expect(await a.collection(notes, 'ws_d').update('first', { title: 'late' })).toBeUndefined();
    expect(await a.collection(notes, 'ws_d').remove('first')).toBe(false);
  });
});

describe('postgres change feed migration', () => {
  it('gives rows written before the feed existed seqs in creation order, per workspace', async () => {
    const { url, node, close } = await database();
    const before = await node();
    await before.collection(notes, 'ws_1').insert(note('late', '2026-01-03'));
    await before.collection(notes, 'ws_1').insert(note('early', '2026-01-01'));
    await before.collection(tags, 'ws_1').insert({ id: 'tag', label: 'x' });
    await before.collection(notes, 'ws_2').insert(note('only', '2026-01-02'));
    await before.collection(notes, 'ws_gone').insert(note('gone', '2026-01-02'));
    await before.dropWorkspace('ws_gone');
    await before.instance(instanceRows).insert({ id: 'i', value: 'v' });
    await close(before);

    // Back to the schema the previous version made: no feed, no counter, rows without seq.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('DROP TABLE folio_changes');
      await client.query('ALTER TABLE folio_workspaces DROP COLUMN seq');
      for (const table of ['c_contract-notes', 'c_feed-tags', 'c_feed-instance'])
        await client.query(`UPDATE "${table}" SET doc = doc - 'seq'`);
      await client.query('DELETE FROM folio_migrations WHERE version >= 3');
    } finally {
      await client.end();
    }

    const after = await node();
    const ws1 = await after.changes('ws_1', { since: 0, limit: 10 });
    // A row without createdAt sorts first; then by createdAt.
    expect(ws1.changes.map((c) => [c.collection, c.id, c.seq])).toEqual([
      [tags.name, 'tag', 1],
      [notes.name, 'early', 2],
      [notes.name, 'late', 3],
    ]);
    expect(ws1.changes.map((c) => c.row?.seq)).toEqual([1, 2, 3]);
    expect(ws1).toMatchObject({ head: 3, next: 3, more: false });
    expect((await after.changes('ws_2', { since: 0, limit: 10 })).changes).toMatchObject([
      { id: 'only', seq: 1 },
    ]);
    expect((await after.changes('ws_gone', { since: 0, limit: 10 })).changes).toEqual([]);
    expect(await after.instance(instanceRows).get('i')).toEqual({ id: 'i', value: 'v' });
    expect((await after.collection(notes, 'ws_1').insert(note('new', '2026-01-04'))).seq).toBe(4);
    await expect(after.collection(notes, 'ws_gone').insert(note('x', 'x'))).rejects.toBeInstanceOf(ScopeGone);
  });
});
