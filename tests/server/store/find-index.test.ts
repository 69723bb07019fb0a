// Indexed answers equal a full scan's: random rows, edits, deletes and restarts, then random searches and tag
// filters paged to the end, each compared with the same filter run over every row here. On the file backend the
// find index (server/store/file/find-index.ts) answers; on PostgreSQL the trigram and GIN indexes each table is
// made with (server/store/postgres/tables.ts), which the planner is shown to use.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createFindIndex } from '../../../server/store/file/find-index.js';
import { openFileStore } from '../../../server/store/file/store.js';
import { tableOf } from '../../../server/store/postgres/database.js';
import { openPostgresStore } from '../../../server/store/postgres/store.js';
import { openS3Blobs } from '../../../server/store/s3/blobs.js';
import { defineCollection, type ListQuery, type Store } from '../../../server/store/types.js';
import { createTestDatabase, testS3Settings } from '../../helpers/hosted/services.js';

type Item = { id: string; name: string; tags: string[]; createdAt: string };

const items = defineCollection<Item>({
  name: 'find-items',
  scope: 'workspace',
  fields: { name: 'text', tags: 'text[]', createdAt: 'text' },
  search: ['name'],
});

/** mulberry32: the same run for the same seed, so a failure can be replayed. */
function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  return { next, pick };
}

const WORDS = ['Alpha', 'beta', 'GAMMA', 'delta', 'q', 'zz', 'report-2026', 'x.png', 'Photo', 'ab', 'a b'];
const TAGS = ['red', 'green', 'blue', 'rare', 'x', 'Two words'];

function randomItem(random: ReturnType<typeof seeded>, i: number): Item {
  const words = Array.from({ length: 1 + Math.floor(random.next() * 3) }, () => random.pick(WORDS));
  const tags = [...new Set(Array.from({ length: Math.floor(random.next() * 3) }, () => random.pick(TAGS)))];
  const second = String(Math.floor(random.next() * 50)).padStart(2, '0');
  return {
    id: `i${i}`,
    name: words.join(random.pick([' ', '', '_'])),
    tags,
    createdAt: `2026-01-01T00:00:${second}Z`,
  };
}

function randomQuery(random: ReturnType<typeof seeded>, rows: Item[]): Omit<ListQuery<Item>, 'limit'> {
  const where: ListQuery<Item>['where'] = {};
  const roll = random.next();
  if (roll < 0.3)
    where.tags = { hasAll: [random.pick(TAGS), ...(random.next() < 0.3 ? [random.pick(TAGS)] : [])] };
  else if (roll < 0.45) where.tags = { hasAny: [random.pick(TAGS), 'absent'] };
  let text: string | undefined;
  const kind = random.next();
  if (kind < 0.4 && rows.length) {
    const name = random.pick(rows).name;
    const start = Math.floor(random.next() * name.length);
    text = name.slice(start, start + 1 + Math.floor(random.next() * 6));
  } else if (kind < 0.6)
    text = random.pick(['Q', 'z', 'ab', 'no such thing', 'a_b', 'PNG', '-2', ' ', 'ta d']);
  return {
    where,
    ...(text && { search: { text: text.toLowerCase(), fields: ['name'] as const } }),
    orderBy: random.next() < 0.8 ? [['createdAt', 'desc']] : [['name', 'asc']],
  } as Omit<ListQuery<Item>, 'limit'>;
}

/** The answer a scan of every row gives, in the query's order (ties on id in the last direction). */
function scan(rows: Item[], query: Omit<ListQuery<Item>, 'limit'>): string[] {
  const tags = query.where?.tags as { hasAll?: string[]; hasAny?: string[] } | undefined;
  const needle = query.search?.text;
  const [[field, direction]] = query.orderBy as [[keyof Item, 'asc' | 'desc']];
  const sign = direction === 'asc' ? 1 : -1;
  return rows
    .filter((row) => !tags?.hasAll || tags.hasAll.every((t) => row.tags.includes(t)))
    .filter((row) => !tags?.hasAny || tags.hasAny.some((t) => row.tags.includes(t)))
    .filter((row) => !needle || row.name.toLowerCase().includes(needle))
    .sort((a, b) => sign * (a[field] < b[field] ? -1 : a[field] > b[field] ? 1 : a.id < b.id ? -1 : 1))
    .map((row) => row.id);
}

async function pageThrough(store: Store, query: Omit<ListQuery<Item>, 'limit'>, limit: number) {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.collection(items, 'ws_find').list({ ...query, limit, cursor });
    ids.push(...page.rows.map((row) => row.id));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return ids;
}

type Backend = { store: Store; reopen(): Promise<Store>; close(): Promise<void>; url?: string };

async function fileBackend(): Promise<Backend> {
  const dataDir = await mkdtemp(join(tmpdir(), 'folio-find-'));
  const backend: Backend = {
    store: await openFileStore({ dataDir, fsync: false }),
    async reopen() {
      await backend.store.close();
      backend.store = await openFileStore({ dataDir, fsync: false });
      return backend.store;
    },
    async close() {
      await backend.store.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return backend;
}

async function postgresBackend(statements: Array<{ sql: string; parameters: readonly unknown[] }> = []) {
  const database = await createTestDatabase();
  const tmpDir = await mkdtemp(join(tmpdir(), 'folio-find-tmp-'));
  const s3 = await testS3Settings();
  const open = async () =>
    openPostgresStore({
      url: database.url,
      blobs: await openS3Blobs({ ...s3, tmpDir }),
      blobBackend: 's3',
      tmpDir,
      onQuery: (sql, parameters) => statements.push({ sql, parameters }),
    });
  const backend: Backend = {
    url: database.url,
    store: await open(),
    async reopen() {
      await backend.store.close();
      backend.store = await open();
      return backend.store;
    },
    async close() {
      await backend.store.close();
      await database.drop();
      await rm(tmpDir, { recursive: true, force: true });
    },
  };
  return backend;
}

describe.each([
  ['files', fileBackend],
  ['postgres+s3', () => postgresBackend()],
])('find on %s: indexed answers equal a full scan', (_name, open) => {
  it('through random inserts, edits, deletes and restarts', async () => {
    const random = seeded(37);
    const backend = await open();
    const model = new Map<string, Item>();
    let next = 0;
    try {
      for (let round = 0; round < 6; round++) {
        const c = backend.store.collection(items, 'ws_find');
        const inserts: Promise<unknown>[] = [];
        for (let i = 0; i < 60; i++) {
          const item = randomItem(random, next++);
          model.set(item.id, item);
          inserts.push(c.insert(item));
        }
        await Promise.all(inserts);
        const writes: Promise<unknown>[] = [];
        for (const row of [...model.values()].filter(() => random.next() < 0.15)) {
          const edited = { ...randomItem(random, 0), id: row.id, createdAt: row.createdAt };
          model.set(row.id, edited);
          writes.push(c.update(row.id, { name: edited.name, tags: edited.tags }));
        }
        for (const row of [...model.values()].filter(() => random.next() < 0.08)) {
          model.delete(row.id);
          writes.push(c.remove(row.id));
        }
        await Promise.all(writes);
        if (round % 2 === 1) {
          await backend.reopen();
          await new Promise((resolve) => setTimeout(resolve, 50)); // the file backend fills its index after load
        }
        const rows = [...model.values()];
        for (let q = 0; q < 25; q++) {
          const query = randomQuery(random, rows);
          const limit = random.pick([3, 7, 50]);
          expect({ query, ids: await pageThrough(backend.store, query, limit) }).toEqual({
            query,
            ids: scan(rows, query),
          });
        }
      }
    } finally {
      await backend.close();
    }
  });
});

describe('the file backend find index', () => {
  it('answers a superset of every match, or nothing, however small its limits', async () => {
    const random = seeded(7);
    const rows = Array.from({ length: 400 }, (_, i) => randomItem(random, i));
    const index = createFindIndex(items);
    await index.fill(new Map(rows.map((row) => [row.id, row])));
    for (const [i, row] of rows.entries())
      if (i % 5 === 0) {
        const edited = { ...randomItem(random, 0), id: row.id };
        index.replace(row, edited);
        rows[i] = edited;
      }
    // Deleted rows give their numbers to new ones, which then land among older rows' numbers.
    for (const row of rows.splice(100, 60)) index.replace(row, undefined);
    for (let i = 400; i < 440; i++) {
      const added = randomItem(random, i);
      index.replace(undefined, added);
      rows.push(added);
    }
    for (let q = 0; q < 300; q++) {
      const query = randomQuery(random, rows);
      const limit = random.pick([2, 5, 50, 1000]);
      const candidates = index.candidates(query, limit);
      if (!candidates) continue;
      const matching = scan(rows, query);
      for (const id of matching)
        expect({ query, id, held: candidates.has(id) }).toMatchObject({ held: true });
      if (candidates.ids)
        expect(new Set(candidates.ids)).toEqual(
          new Set(rows.map((r) => r.id).filter((id) => candidates.has(id))),
        );
    }
  });
});

describe('postgres: the planner uses the search and tag indexes', () => {
  it('a rare search and a rare tag read their GIN indexes, not every row', async () => {
    const statements: Array<{ sql: string; parameters: readonly unknown[] }> = [];
    const backend = await postgresBackend(statements);
    const client = new pg.Client({ connectionString: backend.url });
    try {
      const c = backend.store.collection(items, 'ws_find');
      const rows = Array.from({ length: 5000 }, (_, i) => ({
        id: `i${i}`,
        name: `holiday photo ${i}.jpg`,
        tags: i === 4321 ? ['unusual'] : ['holiday'],
        createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
      }));
      for (let at = 0; at < rows.length; at += 500)
        await backend.store.unitOfWork('ws_find', async (tx) => {
          for (const row of rows.slice(at, at + 500)) await tx.collection(items).insert(row);
        });
      await client.connect();
      // What autovacuum does after a bulk load: a GIN index's statistics are its own, and until they are read
      // the planner takes the new index for empty and prefers any other.
      await client.query(`VACUUM ANALYZE "${tableOf(items.name)}"`);
      const plans: string[] = [];
      for (const query of [
        { search: { text: 'zebra', fields: ['name' as const] } },
        { where: { tags: { hasAll: ['unusual'] } } },
      ]) {
        statements.length = 0;
        expect((await c.list({ ...query, limit: 50 })).rows.length).toBeLessThanOrEqual(1);
        const list = statements.find((s) => /order by/i.test(s.sql))!;
        const plan = await client.query(`EXPLAIN ${list.sql}`, list.parameters as unknown[]);
        plans.push(plan.rows.map((row) => row['QUERY PLAN']).join('\n'));
      }
      expect(plans[0]).toMatch(/Bitmap Index Scan on \S*name_trgm/);
      expect(plans[1]).toMatch(/Bitmap Index Scan on \S*tags_idx/);
    } finally {
      await client.end();
      await backend.close();
    }
  }, 120_000);

  it('the GIN indexes keep no pending list, and a database whose indexes had one is migrated', async () => {
    const backend = await postgresBackend();
    const client = new pg.Client({ connectionString: backend.url });
    const ginOptions = async () =>
      (
        await client.query(`SELECT index_class.relname AS name, index_class.reloptions AS options
          FROM pg_index JOIN pg_class AS index_class ON index_class.oid = pg_index.indexrelid
          JOIN pg_am ON pg_am.oid = index_class.relam
          WHERE pg_am.amname = 'gin' AND pg_index.indrelid = '"${tableOf(items.name)}"'::regclass
          ORDER BY 1`)
      ).rows as Array<{ name: string; options: string[] | null }>;
    try {
      const c = backend.store.collection(items, 'ws_gin');
      await c.insert({ id: 'a', name: 'first light', tags: ['dawn'], createdAt: '2026-01-01T00:00:00Z' });
      await client.connect();
      const made = await ginOptions();
      expect(made.map((index) => index.name)).toEqual([
        expect.stringMatching(/name_trgm/),
        expect.stringMatching(/tags_idx/),
      ]);
      for (const index of made) expect(index.options).toContain('fastupdate=off');

      // As an older version left them: pending lists on, entries waiting in them, the migration not yet run.
      for (const { name } of made) await client.query(`ALTER INDEX "${name}" SET (fastupdate = on)`);
      await c.insert({ id: 'b', name: 'late evening', tags: ['dusk'], createdAt: '2026-01-02T00:00:00Z' });
      await client.query('DELETE FROM folio_migrations WHERE version >= 4');
      const reopened = (await backend.reopen()).collection(items, 'ws_gin');
      for (const index of await ginOptions()) expect(index.options).toContain('fastupdate=off');
      expect((await reopened.list({ search: { text: 'evening', fields: ['name'] }, limit: 5 })).rows).toEqual(
        [expect.objectContaining({ id: 'b' })],
      );
      expect((await reopened.list({ where: { tags: { hasAll: ['dusk'] } }, limit: 5 })).rows).toEqual([
        expect.objectContaining({ id: 'b' }),
      ]);
    } finally {
      await client.end();
      await backend.close();
    }
  }, 60_000);
});
