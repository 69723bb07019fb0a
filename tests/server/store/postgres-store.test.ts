// The store contract on the hosted backend: a real PostgreSQL and a real S3 API (OpenStack Swift with s3api),
// started once per run (tests/helpers/hosted/). Every statement the suite sends is kept, and the last test
// checks that each one on a collection table names its workspace.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../../server/store/postgres/store.js';
import { openS3Blobs } from '../../../server/store/s3/blobs.js';
import { defineCollection, type Store } from '../../../server/store/types.js';
import { createTestDatabase, testS3Settings } from '../../helpers/hosted/services.js';
import { describeStoreContract, notes } from './store-contract.js';

const statements: string[] = [];

async function openHosted(
  url: string,
  s3: Awaited<ReturnType<typeof testS3Settings>>,
  tmpDir: string,
  poolSize?: number,
): Promise<Store> {
  const blobs = await openS3Blobs({ ...s3, tmpDir });
  return openPostgresStore({
    url,
    blobs,
    blobBackend: 's3',
    tmpDir,
    poolSize,
    onQuery: (sql) => statements.push(sql),
  });
}

describeStoreContract('postgres+s3', async () => {
  const database = await createTestDatabase();
  const s3 = await testS3Settings();
  const tmpDir = await mkdtemp(join(tmpdir(), 'folio-hosted-tmp-'));
  let store = await openHosted(database.url, s3, tmpDir);
  return {
    get store() {
      return store;
    },
    async reopen() {
      await store.close();
      store = await openHosted(database.url, s3, tmpDir);
      return store;
    },
    async cleanup() {
      await store.close();
      await database.drop();
      await rm(tmpDir, { recursive: true, force: true });
    },
  };
});

const noteRow = (id: string) => ({ id, title: id, kind: 'k', tags: [], size: 1, createdAt: 'x' });

describe('postgres backend: what PostgreSQL adds', () => {
  async function hostedStore(poolSize?: number) {
    const database = await createTestDatabase();
    const tmpDir = await mkdtemp(join(tmpdir(), 'folio-hosted-tmp-'));
    const store = await openHosted(database.url, await testS3Settings(), tmpDir, poolSize);
    return {
      store,
      url: database.url,
      async close() {
        await store.close();
        await database.drop();
        await rm(tmpDir, { recursive: true, force: true });
      },
    };
  }

  it('stores U+0000 and unpaired surrogates as U+FFFD, and finds rows by such values without failing', async () => {
    const { store, close } = await hostedStore();
    try {
      const c = store.collection(notes, 'ws_text');
      const row = {
        id: 'n1',
        title: 'a\u0000b\ud800c',
        kind: 'k\u0000',
        tags: ['t\u0000'],
        size: 1,
        createdAt: '2026-01-01T00:00:00.000Z',
      };
      await c.insert(row);
      expect(await c.get('n1')).toMatchObject({
        title: 'a\ufffdb\ufffdc',
        kind: 'k\ufffd',
        tags: ['t\ufffd'],
      });
      expect(await c.findOne({ kind: 'k\u0000' })).toMatchObject({ id: 'n1' });
      expect(await c.get('n1\u0000')).toBeUndefined();
      expect(await store.collection(notes, 'ws\u0000x').count()).toBe(0);
      expect((await c.update('n1', { title: '\\u0000 stays text' }))?.title).toBe('\\u0000 stays text');
    } finally {
      await close();
    }
  });

  it('a unit that holds its workspace never waits for a second connection: it puts a blob after its first write while writers queued behind it hold the whole pool', async () => {
    const { store, close } = await hostedStore(3);
    try {
      await store.collection(notes, 'ws_pool').insert(noteRow('first')); // registers the workspace
      let queued: Promise<unknown>[] = [];
      const unit = store.unitOfWork('ws_pool', async (tx) => {
        await tx.collection(notes).insert(noteRow('in-unit')); // takes the workspace's change counter
        // Three writers outside the unit, one per pool connection, each waiting for that counter.
        queued = ['a', 'b', 'c'].map((id) => store.collection(notes, 'ws_pool').insert(noteRow(id)));
        await new Promise((r) => setTimeout(r, 300));
        await tx.blobs.put('workspaces/ws_pool/files/late', Buffer.from('late bytes'));
      });
      let timer: NodeJS.Timeout | undefined;
      const stuck = new Promise((r) => (timer = setTimeout(() => r('stuck'), 10_000)));
      expect(await Promise.race([unit.then(() => 'committed'), stuck])).toBe('committed');
      clearTimeout(timer);
      await Promise.all(queued);
      expect(await store.collection(notes, 'ws_pool').count()).toBe(5);
      expect((await store.blobs.stat('workspaces/ws_pool/files/late'))?.size).toBe(10);
    } finally {
      await close();
    }
  });

  it('a connection the database ends while a unit holds it fails that unit, not the process, and the store goes on', async () => {
    const { store, url, close } = await hostedStore(2);
    try {
      await store.collection(notes, 'ws_cut').insert(noteRow('before'));
      const unit = store.unitOfWork('ws_cut', async (tx) => {
        await tx.collection(notes).insert(noteRow('in-unit'));
        const admin = new pg.Client({ connectionString: url });
        await admin.connect();
        await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
        );
        await admin.end();
        await new Promise((r) => setTimeout(r, 200)); // the held client hears the FATAL while idle in its transaction
        await tx.collection(notes).insert(noteRow('after-cut'));
      });
      await expect(unit).rejects.toThrow();
      const c = store.collection(notes, 'ws_cut');
      expect((await c.all()).map((r) => r.id).sort()).toEqual(['before']);
      await c.insert(noteRow('later'));
      expect(await c.count()).toBe(2);
    } finally {
      await close();
    }
  });

  it('indexes declared fields, unique fields and searched fields', async () => {
    const { store, url, close } = await hostedStore();
    const searched = defineCollection<{ id: string; name: string; createdAt: string }>({
      name: 'contract-searched',
      scope: 'workspace',
      fields: { name: 'text', createdAt: 'text' },
      search: ['name'],
    });
    try {
      await store
        .collection(searched, 'ws_s')
        .insert({ id: 'a', name: 'The Quarterly Report', createdAt: 'x' });
      expect(
        (
          await store
            .collection(searched, 'ws_s')
            .list({ limit: 5, search: { text: 'quarterly', fields: ['name'] } })
        ).rows,
      ).toHaveLength(1);
      await store
        .collection(notes, 'ws_s')
        .insert({ id: 'n', title: 't', kind: 'k', tags: [], size: 1, createdAt: 'x', slug: 's' });
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const { rows } = await client.query<{ indexname: string; indexdef: string }>(
        "SELECT indexname, indexdef FROM pg_indexes WHERE tablename IN ('c_contract-searched', 'c_contract-notes')",
      );
      await client.end();
      const defs = rows.map((r) => r.indexdef).join('\n');
      expect(defs).toMatch(/gin \(folio_fold\(name\) gin_trgm_ops\)/);
      expect(defs).toMatch(/UNIQUE INDEX .*\(\(doc ->> 'slug'::text\)\)/);
      expect(defs).toMatch(/\(workspace_id, "createdAt" NULLS FIRST, id\)/);
      expect(defs).toMatch(/gin \(tags\)/);
    } finally {
      await close();
    }
  });
});

describe('postgres backend: workspace isolation', () => {
  it('every statement on a collection table names its workspace', async () => {
    // Run every query path once more, so the check does not depend on which contract tests ran.
    const database = await createTestDatabase();
    const tmpDir = await mkdtemp(join(tmpdir(), 'folio-hosted-tmp-'));
    const store = await openHosted(database.url, await testS3Settings(), tmpDir);
    try {
      const c = store.collection(notes, 'ws_iso');
      const row = {
        id: 'n1',
        title: 'a',
        kind: 'k',
        tags: ['x'],
        size: 1,
        createdAt: '2026-01-01T00:00:00.000Z',
        slug: 'iso',
      };
      await c.insert(row);
      await c.get('n1');
      await c.findOne({ kind: 'k' });
      const page = await c.list({ limit: 1, where: { kind: 'k' }, search: { text: 'a', fields: ['title'] } });
      await c.list({ limit: 1, cursor: page.nextCursor ?? undefined });
      await c.all({ size: { gte: 0 } });
      await c.count();
      await c.sum('size');
      await c.update('n1', { title: 'b' }, { if: { title: 'a' } });
      await c.remove('n1', { if: { title: 'b' } });
      await c.tombstone('n1');
      await store.collection(notes, 'ws_iso').insert({ ...row, id: 'n2', slug: 'iso2' });
      await store.changes('ws_iso', { since: 0, limit: 10 });
      await store.changes('ws_iso', { since: 0, limit: 10, collections: [notes.name] });
      await store.lookup(notes, 'slug', 'iso');
      await store.workspacesWith(notes);
      await store.dropWorkspace('ws_iso');
    } finally {
      await store.close();
      await database.drop();
      await rm(tmpDir, { recursive: true, force: true });
    }

    const onCollections = statements.filter((s) => /"c_[^"]+"/.test(s) && !/^\s*(create|alter)\b/i.test(s));
    expect(onCollections.length).toBeGreaterThan(10);
    const unscoped = onCollections.filter((s) => !scoped(s));
    expect(unscoped).toEqual([]);
  });
});

/**
 * A statement is scoped when it filters on `workspace_id` (a parameter, or the registry row it joins), or an
 * insert writes the workspace from a parameter. The one deliberate exception is `Store.lookup`, which finds a
 * row by an instance-wide unique value and answers with the workspace that holds it.
 */
function scoped(statement: string): boolean {
  if (/"workspace_id" = \$\d+/.test(statement)) return true;
  if (/"workspace_id" = "w"\."id"/.test(statement)) return true;
  if (
    /^insert into "c_[^"]+" \("workspace_id", "id", "doc"\) (values \(\$1|select \$1 as "workspace_id")/.test(
      statement,
    )
  )
    return true;
  return /^select "workspace_id", "doc" from "c_[^"]+" where doc ->> '[A-Za-z]+' = \$1/.test(statement);
}
