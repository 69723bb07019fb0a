// The storage contract every backend must keep (server/store/types.ts). A backend's test file calls
// `describeStoreContract` with a factory; the file backend runs it in file-store.test.ts.
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidCursor, ScopeGone, StoreConflict, UndeclaredField } from '../../../server/store/errors.js';
import { defineCollection, type Row, type Store } from '../../../server/store/types.js';
import { describeUnitOfWorkContract } from './unit-of-work-contract.js';

export type StoreHandle = {
  store: Store;
  /** Closes and opens the same data again (a restart). */
  reopen(): Promise<Store>;
  cleanup(): Promise<void>;
};

type Note = {
  id: string;
  title: string;
  kind: string;
  tags: string[];
  size: number;
  createdAt: string;
  slug?: string | null;
  usedAt?: string | null;
  secret?: string;
};

export const notes = defineCollection<Note>({
  name: 'contract-notes',
  scope: 'workspace',
  fields: {
    title: 'text',
    kind: 'text',
    tags: 'text[]',
    size: 'number',
    createdAt: 'text',
    usedAt: 'text',
    slug: 'text',
  },
  unique: ['slug'],
});
const tagsOf = defineCollection<{ id: string; label: string }>({
  name: 'contract-tags',
  scope: 'workspace',
  fields: { label: 'text' },
});
const settings = defineCollection<{ id: string; value: string; createdAt: string }>({
  name: 'contract-settings',
  scope: 'instance',
  fields: { value: 'text', createdAt: 'text' },
});

const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
const note = (i: number, extra: Partial<Note> = {}): Note => ({
  id: `n${String(i).padStart(4, '0')}`,
  title: `Note ${i}`,
  kind: i % 2 === 0 ? 'even' : 'odd',
  tags: i % 3 === 0 ? ['three', 'all'] : ['all'],
  size: i,
  createdAt: at(i),
  ...extra,
});

export function describeStoreContract(backend: string, open: () => Promise<StoreHandle>) {
  describe(`store contract: ${backend}`, () => {
    const handles: StoreHandle[] = [];
    const start = async () => {
      const handle = await open();
      handles.push(handle);
      return handle;
    };
    afterEach(async () => {
      for (const handle of handles.splice(0)) await handle.cleanup();
    });

    describe('records', () => {
      it('inserts, gets, finds, updates and removes a row', async () => {
        const { store } = await start();
        const c = store.collection(notes, 'ws_a');
        await c.insert(note(1));
        expect(await c.get('n0001')).toMatchObject({ title: 'Note 1', tags: ['all'] });
        expect(await c.findOne({ kind: 'odd' })).toMatchObject({ id: 'n0001' });
        expect(await c.get('missing')).toBeUndefined();
        const updated = await c.update('n0001', { title: 'Renamed', slug: undefined });
        expect(updated).toMatchObject({ id: 'n0001', title: 'Renamed', kind: 'odd' });
        expect(await c.update('missing', { title: 'x' })).toBeUndefined();
        expect(await c.remove('n0001')).toBe(true);
        expect(await c.remove('n0001')).toBe(false);
        expect(await c.get('n0001')).toBeUndefined();
      });

      it('clears a field patched with null', async () => {
        const { store } = await start();
        const c = store.collection(notes, 'ws_a');
        await c.insert(note(1, { usedAt: at(5) }));
        expect((await c.update('n0001', { usedAt: null }))?.usedAt ?? null).toBeNull();
        expect(await c.findOne({ usedAt: null })).toMatchObject({ id: 'n0001' });
      });

      it('refuses a taken id and a taken unique value, across workspaces too', async () => {
        const { store } = await start();
        const a = store.collection(notes, 'ws_a');
        const b = store.collection(notes, 'ws_b');
        await a.insert(note(1, { slug: 'q3' }));
        await expect(a.insert(note(1))).rejects.toBeInstanceOf(StoreConflict);
        await expect(b.insert(note(2, { slug: 'q3' }))).rejects.toBeInstanceOf(StoreConflict);
        await b.insert(note(3, { slug: 'q4' }));
        expect(await b.update('n0003', { slug: 'q3' }).catch((e) => e)).toBeInstanceOf(StoreConflict);
        expect((await b.get('n0003'))?.slug).toBe('q4');
        await a.update('n0001', { slug: 'q5' });
        await b.insert(note(4, { slug: 'q3' }));
      });

      it('finds a row by a unique field without its workspace', async () => {
        const { store } = await start();
        await store.collection(notes, 'ws_a').insert(note(1, { slug: 'alpha' }));
        await store.collection(notes, 'ws_b').insert(note(2, { slug: 'beta' }));
        expect(await store.lookup(notes, 'slug', 'beta')).toMatchObject({
          workspaceId: 'ws_b',
          row: { id: 'n0002' },
        });
        expect(await store.lookup(notes, 'slug', 'gamma')).toBeUndefined();
        await store.collection(notes, 'ws_b').remove('n0002');
        expect(await store.lookup(notes, 'slug', 'beta')).toBeUndefined();
      });

      it('keeps workspaces apart', async () => {
        const { store } = await start();
        await store.collection(notes, 'ws_a').insert(note(1));
        const b = store.collection(notes, 'ws_b');
        expect(await b.get('n0001')).toBeUndefined();
        expect(await b.count()).toBe(0);
        expect(await b.update('n0001', { title: 'x' })).toBeUndefined();
        expect(await b.remove('n0001')).toBe(false);
        expect((await store.collection(notes, 'ws_a').get('n0001'))?.title).toBe('Note 1');
        expect((await store.workspacesWith(notes)).sort()).toContain('ws_a');
      });

      it('writes conditionally: of 20 racing single-use claims exactly one wins', async () => {
        const { store } = await start();
        const c = store.collection(notes, 'ws_a');
        await c.insert(note(1, { usedAt: null }));
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            c.update('n0001', { usedAt: at(i), title: `claim ${i}` }, { if: { usedAt: null } }),
          ),
        );
        const winners = results.filter(Boolean);
        expect(winners).toHaveLength(1);
        expect(await c.get('n0001')).toEqual(winners[0]);
        expect(await c.remove('n0001', { if: { usedAt: null } })).toBe(false);
        expect(await c.remove('n0001', { if: { title: winners[0]!.title } })).toBe(true);
      });

      it('counts and sums', async () => {
        const { store } = await start();
        const c = store.collection(notes, 'ws_a');
        for (let i = 1; i <= 10; i++) await c.insert(note(i));
        expect(await c.count()).toBe(10);
        expect(await c.count({ kind: 'even' })).toBe(5);
        expect(await c.sum('size')).toBe(55);
        expect(await c.sum('size', { kind: 'odd' })).toBe(25);
        expect(await store.collection(notes, 'ws_empty').sum('size')).toBe(0);
      });

      it('keeps instance collections apart from workspaces', async () => {
        const { store } = await start();
        await store.instance(settings).insert({ id: 'theme', value: 'dark', createdAt: at(1) });
        expect(await store.instance(settings).get('theme')).toMatchObject({ value: 'dark' });
        expect(await store.collection(settings, 'ws_a').get('theme')).toBeUndefined();
      });

      it('keeps every acknowledged write across a restart', async () => {
        const handle = await start();
        const c = handle.store.collection(notes, 'ws_a');
        for (let i = 1; i <= 5; i++) await c.insert(note(i, { slug: `s${i}` }));
        await c.update('n0002', { title: 'Two' });
        await c.remove('n0003');
        await handle.store.instance(settings).insert({ id: 'x', value: 'y', createdAt: at(1) });
        const again = await handle.reopen();
        const c2 = again.collection(notes, 'ws_a');
        expect((await c2.all()).map((n) => n.id)).toEqual(['n0001', 'n0002', 'n0004', 'n0005']);
        expect((await c2.get('n0002'))?.title).toBe('Two');
        expect(await again.lookup(notes, 'slug', 's4')).toMatchObject({ workspaceId: 'ws_a' });
        await expect(again.collection(notes, 'ws_b').insert(note(9, { slug: 's5' }))).rejects.toBeInstanceOf(
          StoreConflict,
        );
        expect(await again.instance(settings).get('x')).toMatchObject({ value: 'y' });
      });
    });

    describe('queries', () => {
      async function seeded(n = 25) {
        const { store } = await start();
        const c = store.collection(notes, 'ws_q');
        for (let i = 1; i <= n; i++) await c.insert(note(i));
        return c;
      }

      it('lists newest first and pages with cursors, each row exactly once', async () => {
        const c = await seeded();
        const seen: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await c.list({ limit: 7, cursor });
          expect(page.rows.length).toBeLessThanOrEqual(7);
          seen.push(...page.rows.map((r) => r.id));
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
        expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => note(25 - i).id));
        expect((await c.list({ limit: 25 })).nextCursor).toBeNull();
      });

      it('breaks createdAt ties by id and keeps paging stable', async () => {
        const { store } = await start();
        const c = store.collection(notes, 'ws_t');
        for (let i = 1; i <= 9; i++) await c.insert(note(i, { createdAt: at(1) }));
        const first = await c.list({ limit: 4 });
        const second = await c.list({ limit: 10, cursor: first.nextCursor! });
        expect([...first.rows, ...second.rows].map((r) => r.id)).toEqual(
          Array.from({ length: 9 }, (_, i) => note(9 - i).id),
        );
      });

      it('filters by equality, in, ne, ranges, prefix, hasAll and hasAny', async () => {
        const c = await seeded(12);
        const ids = async (where: Parameters<typeof c.list>[0]['where']) =>
          (await c.all(where)).map((r) => r.size).sort((a, b) => a - b);
        expect(await ids({ kind: 'even' })).toEqual([2, 4, 6, 8, 10, 12]);
        expect(await ids({ size: { in: [1, 5, 99] } })).toEqual([1, 5]);
        expect(await ids({ kind: { ne: 'even' }, size: { lte: 5 } })).toEqual([1, 3, 5]);
        expect(await ids({ size: { gt: 3, lt: 6 } })).toEqual([4, 5]);
        expect(await ids({ createdAt: { gte: at(11) } })).toEqual([11, 12]);
        expect(await ids({ title: { prefix: 'Note 1' } })).toEqual([1, 10, 11, 12]);
        expect(await ids({ tags: { hasAll: ['three', 'all'] } })).toEqual([3, 6, 9, 12]);
        expect(await ids({ tags: { hasAny: ['three', 'none'] } })).toEqual([3, 6, 9, 12]);
        expect(await ids({ tags: { hasAll: ['none'] } })).toEqual([]);
      });

      it('searches text case-insensitively and orders as asked', async () => {
        const c = await seeded(12);
        await c.update('n0007', { title: 'The Quarterly REPORT' });
        const found = await c.list({ limit: 10, search: { text: 'report', fields: ['title'] } });
        expect(found.rows.map((r) => r.id)).toEqual(['n0007']);
        const percent = await c.list({ limit: 10, search: { text: '%', fields: ['title'] } });
        expect(percent.rows).toEqual([]);
        const bySize = await c.list({ limit: 3, orderBy: [['size', 'asc']] });
        expect(bySize.rows.map((r) => r.size)).toEqual([1, 2, 3]);
        const next = await c.list({ limit: 3, orderBy: [['size', 'asc']], cursor: bySize.nextCursor! });
        expect(next.rows.map((r) => r.size)).toEqual([4, 5, 6]);
      });

      it('keeps pages in order through inserts, moves, removes and nulls after the first page was read', async () => {
        const c = await seeded(30);
        type Order = [['createdAt' | 'size' | 'usedAt', 'asc' | 'desc']];
        const orders: Order[] = [
          [['createdAt', 'desc']],
          [['createdAt', 'asc']],
          [['size', 'asc']],
          [['usedAt', 'desc']],
        ];
        const paged = async (orderBy: Order, where?: { kind: string }) => {
          const ids: string[] = [];
          let cursor: string | undefined;
          do {
            const page = await c.list({ limit: 4, orderBy, where, cursor });
            ids.push(...page.rows.map((r) => r.id));
            cursor = page.nextCursor ?? undefined;
          } while (cursor);
          return ids;
        };
        const expected = async (orderBy: Order, where?: { kind: string }) => {
          const [[field, direction]] = orderBy;
          const rank = (v: unknown) => (v === null || v === undefined ? '' : String(v).padStart(30, '0'));
          const rows = await c.all(where);
          const sorted = rows.sort((a, b) => {
            const x = `${rank(a[field])}\u0000${a.id}`;
            const y = `${rank(b[field])}\u0000${b.id}`;
            return x < y ? -1 : x > y ? 1 : 0;
          });
          return (direction === 'desc' ? sorted.reverse() : sorted).map((r) => r.id);
        };
        for (const orderBy of orders) await paged(orderBy); // the first pages: what a kept order is built from
        await c.insert(note(31, { createdAt: at(0) })); // oldest of all, though inserted last
        await c.insert(note(32, { createdAt: at(15) })); // ties with n0015: id breaks it
        await c.update('n0003', { createdAt: at(40), size: 99, usedAt: at(5) }); // moves to the other end
        await c.update('n0004', { usedAt: at(2) });
        await c.update('n0005', { usedAt: null });
        await c.remove('n0010');
        await c.remove('n0031');
        await c.insert(note(10, { createdAt: at(10) })); // back under the id it had
        for (const orderBy of orders) {
          expect(await paged(orderBy)).toEqual(await expected(orderBy));
          expect(await paged(orderBy, { kind: 'odd' })).toEqual(await expected(orderBy, { kind: 'odd' }));
        }
      });

      it('refuses a cursor it did not make and a field it does not declare', async () => {
        const c = await seeded(3);
        await expect(c.list({ limit: 2, cursor: 'garbage!' })).rejects.toBeInstanceOf(InvalidCursor);
        await expect(
          c.list({ limit: 2, cursor: Buffer.from('[1]').toString('base64url') }),
        ).rejects.toBeInstanceOf(InvalidCursor);
        // biome-ignore lint/suspicious/noExplicitAny: an undeclared field on purpose
        await expect(c.list({ limit: 2, where: { secret: 'x' } as any })).rejects.toBeInstanceOf(
          UndeclaredField,
        );
      });
    });

    describe('change feed', () => {
      const seqOf = (row: Row | undefined) => row?.seq ?? Number.NaN;

      it('stamps every workspace write with a higher seq and answers what changed, oldest first', async () => {
        const { store } = await start();
        const c = store.collection(notes, 'ws_f');
        const one = await c.insert(note(1));
        const two = await c.insert(note(2));
        const renamed = await c.update('n0001', { title: 'One' });
        expect(await c.remove('n0002')).toBe(true);
        const three = await c.insert(note(3));
        const seqs = [one, two, renamed, three].map(seqOf);
        expect(seqs.every(Number.isInteger)).toBe(true);
        expect(seqOf(two)).toBeGreaterThan(seqOf(one));
        expect(seqOf(renamed)).toBeGreaterThan(seqOf(two));
        expect(seqOf(await c.get('n0001'))).toBe(seqOf(renamed));
        const removedAt = await c.tombstone('n0002');
        expect(removedAt).toBeGreaterThan(seqOf(renamed));
        expect(seqOf(three)).toBeGreaterThan(removedAt!);
        expect(await c.tombstone('n0001')).toBeUndefined();

        const page = await store.changes('ws_f', { since: 0, limit: 10 });
        expect(page.changes.map((ch) => [ch.collection, ch.id, ch.seq])).toEqual([
          [notes.name, 'n0001', seqOf(renamed)],
          [notes.name, 'n0002', removedAt],
          [notes.name, 'n0003', seqOf(three)],
        ]);
        expect(page.changes[0].row).toEqual(await c.get('n0001'));
        expect(page.changes[1].row).toBeNull();
        expect(page).toMatchObject({ more: false, next: seqOf(three), head: seqOf(three) });
        const later = await store.changes('ws_f', { since: seqOf(renamed), limit: 10 });
        expect(later.changes.map((ch) => ch.id)).toEqual(['n0002', 'n0003']);
        expect((await store.changes('ws_f', { since: page.next, limit: 10 })).changes).toEqual([]);
      });

      it('pages with next and more, and filters by collection while next still moves past the rest', async () => {
        const { store } = await start();
        const c = store.collection(notes, 'ws_p');
        const other = store.collection(tagsOf, 'ws_p');
        for (let i = 1; i <= 20; i++) {
          await c.insert(note(i));
          if (i % 4 === 0) await other.insert({ id: `t${i}`, label: `tag ${i}` });
        }
        const seen: string[] = [];
        let since = 0;
        let pages = 0;
        for (;;) {
          const page = await store.changes('ws_p', { since, limit: 7 });
          pages++;
          expect(page.changes.length).toBeLessThanOrEqual(7);
          seen.push(...page.changes.map((ch) => ch.id));
          expect(page.next).toBeGreaterThanOrEqual(since);
          since = page.next;
          if (!page.more) break;
        }
        expect(pages).toBe(4);
        expect(seen).toHaveLength(25);
        expect(new Set(seen).size).toBe(25);
        const onlyTags = await store.changes('ws_p', { since: 0, limit: 100, collections: [tagsOf.name] });
        expect(onlyTags.changes.map((ch) => ch.id)).toEqual(['t4', 't8', 't12', 't16', 't20']);
        expect(onlyTags.next).toBe(onlyTags.head);
        expect(onlyTags.next).toBe(since);
      });

      it('keeps each workspace its own feed and leaves instance collections out', async () => {
        const { store } = await start();
        await store.collection(notes, 'ws_a').insert(note(1));
        await store.instance(settings).insert({ id: 'theme', value: 'dark', createdAt: at(1) });
        expect((await store.changes('ws_b', { since: 0, limit: 10 })).changes).toEqual([]);
        const a = await store.changes('ws_a', { since: 0, limit: 10 });
        expect(a.changes.map((ch) => ch.id)).toEqual(['n0001']);
        await store.collection(notes, 'ws_b').insert(note(2));
        expect((await store.changes('ws_b', { since: 0, limit: 10 })).changes.map((ch) => ch.id)).toEqual([
          'n0002',
        ]);
      });

      it('writes only over the version it read: of 20 updates based on one seq exactly one wins', async () => {
        const { store } = await start();
        const c = store.collection(notes, 'ws_c');
        const base = seqOf(await c.insert(note(1)));
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            c.update('n0001', { title: `edit ${i}` }, { if: { seq: base } }),
          ),
        );
        const winners = results.filter(Boolean);
        expect(winners).toHaveLength(1);
        expect(await c.get('n0001')).toEqual(winners[0]);
        expect(await c.remove('n0001', { if: { seq: base } })).toBe(false);
        expect(await c.remove('n0001', { if: { seq: seqOf(winners[0]) } })).toBe(true);
      });

      it('clears a tombstone when its id is inserted again', async () => {
        const { store } = await start();
        const c = store.collection(notes, 'ws_t');
        await c.insert(note(1));
        await c.remove('n0001');
        expect(await c.tombstone('n0001')).toBeDefined();
        const again = await c.insert(note(1, { title: 'Back' }));
        expect(await c.tombstone('n0001')).toBeUndefined();
        const page = await store.changes('ws_t', { since: 0, limit: 10 });
        expect(page.changes).toEqual([
          { collection: notes.name, id: 'n0001', seq: seqOf(again), row: again },
        ]);
      });

      it('a reader following `next` while writers race ends with exactly the stored rows and tombstones', async () => {
        const { store } = await start();
        const c = store.collection(notes, 'ws_r');
        const replica = new Map<string, number | null>();
        let since = 0;
        let writing = true;
        const reader = (async () => {
          while (writing) {
            const page = await store.changes('ws_r', { since, limit: 5 });
            for (const ch of page.changes) {
              expect(ch.seq).toBeGreaterThan(since);
              replica.set(ch.id, ch.row ? ch.seq : null);
            }
            since = page.next;
            await new Promise((r) => setImmediate(r));
          }
        })();
        await Promise.all(
          Array.from({ length: 8 }, async (_, w) => {
            for (let i = 0; i < 25; i++) {
              const id = note((w * 7 + i * 3) % 30).id;
              const current = await c.get(id);
              if (!current) await c.insert({ ...note(0), id }).catch(() => undefined);
              else if (i % 5 === 4) await c.remove(id);
              else await c.update(id, { title: `w${w} i${i}` });
            }
          }),
        );
        writing = false;
        await reader;
        for (let page = await store.changes('ws_r', { since, limit: 5 }); ; ) {
          for (const ch of page.changes) replica.set(ch.id, ch.row ? ch.seq : null);
          if (!page.more) break;
          page = await store.changes('ws_r', { since: page.next, limit: 5 });
        }
        const stored = new Map<string, number | null>();
        for (const row of await c.all()) stored.set(row.id, seqOf(row));
        for (let i = 0; i < 30; i++) {
          const id = note(i).id;
          if (!stored.has(id) && (await c.tombstone(id)) !== undefined) stored.set(id, null);
        }
        expect(replica).toEqual(stored);
      });

      it('keeps seqs and tombstones across a restart, and later writes go higher', async () => {
        const handle = await start();
        const c = handle.store.collection(notes, 'ws_k');
        for (let i = 1; i <= 4; i++) await c.insert(note(i));
        await c.update('n0002', { title: 'Two' });
        await c.remove('n0003');
        const before = await handle.store.changes('ws_k', { since: 0, limit: 10 });
        const again = await handle.reopen();
        const after = await again.changes('ws_k', { since: 0, limit: 10 });
        expect(after.changes).toEqual(before.changes);
        expect(await again.collection(notes, 'ws_k').tombstone('n0003')).toBe(before.changes.at(-1)?.seq);
        const fresh = await again.collection(notes, 'ws_k').insert(note(9));
        expect(seqOf(fresh)).toBeGreaterThan(before.head);
      });

      it("forgets a dropped workspace's feed", async () => {
        const { store } = await start();
        await store.collection(notes, 'ws_x').insert(note(1));
        await store.dropWorkspace('ws_x');
        expect((await store.changes('ws_x', { since: 0, limit: 10 })).changes).toEqual([]);
      });
    });

    describe('workspaces', () => {
      it('drops a workspace for good: its rows and blobs go, later writes fail', async () => {
        const handle = await start();
        const { store } = handle;
        await store.collection(notes, 'ws_d').insert(note(1, { slug: 'dropped' }));
        await store.blobs.put('workspaces/ws_d/files/a', Buffer.from('bytes'));
        await store.collection(notes, 'ws_keep').insert(note(2));
        await store.dropWorkspace('ws_d');
        expect(await store.collection(notes, 'ws_d').get('n0001')).toBeUndefined();
        expect(await store.blobs.stat('workspaces/ws_d/files/a')).toBeUndefined();
        expect(await store.lookup(notes, 'slug', 'dropped')).toBeUndefined();
        await expect(store.collection(notes, 'ws_d').insert(note(3))).rejects.toBeInstanceOf(ScopeGone);
        await expect(store.blobs.put('workspaces/ws_d/files/b', Buffer.from('x'))).rejects.toBeInstanceOf(
          ScopeGone,
        );
        expect(await store.workspacesWith(notes)).not.toContain('ws_d');
        const again = await handle.reopen();
        await expect(again.collection(notes, 'ws_d').insert(note(4))).rejects.toBeInstanceOf(ScopeGone);
        expect(await again.collection(notes, 'ws_keep').get('n0002')).toBeDefined();
      });
    });

    describe('blobs', () => {
      it('puts a stream, then reads it whole and by range', async () => {
        const { store } = await start();
        const body = 'Hello, ranges!';
        const put = await store.blobs.put('workspaces/ws_b/files/hello', Readable.from([Buffer.from(body)]));
        expect(put).toEqual({ size: body.length, sha256: createHash('sha256').update(body).digest('hex') });
        expect(await text((await store.blobs.get('workspaces/ws_b/files/hello'))!)).toBe(body);
        expect(
          await text((await store.blobs.get('workspaces/ws_b/files/hello', { start: 7, end: 12 }))!),
        ).toBe('ranges');
        expect(await store.blobs.stat('workspaces/ws_b/files/hello')).toMatchObject({ size: body.length });
        expect(await store.blobs.get('workspaces/ws_b/files/missing')).toBeUndefined();
        expect(await store.blobs.stat('workspaces/ws_b/files/missing')).toBeUndefined();
      });

      it('replaces a blob, lists by prefix, deletes one and a whole prefix', async () => {
        const { store } = await start();
        await store.blobs.put('workspaces/ws_l/files/a', Buffer.from('1'));
        await store.blobs.put('workspaces/ws_l/files/a', Buffer.from('22'));
        await store.blobs.put('workspaces/ws_l/files/b', Buffer.from('333'));
        await store.blobs.put('workspaces/ws_l/chunked/u1/0', Buffer.from('4444'));
        const listed: Record<string, number> = {};
        for await (const info of store.blobs.list('workspaces/ws_l/files')) listed[info.key] = info.size;
        expect(listed).toEqual({ 'workspaces/ws_l/files/a': 2, 'workspaces/ws_l/files/b': 3 });
        const keys: string[] = [];
        for await (const batch of store.blobs.keys('workspaces/ws_l')) keys.push(...batch);
        expect(keys.sort()).toEqual([
          'workspaces/ws_l/chunked/u1/0',
          'workspaces/ws_l/files/a',
          'workspaces/ws_l/files/b',
        ]);
        await store.blobs.delete('workspaces/ws_l/files/a');
        expect(await store.blobs.stat('workspaces/ws_l/files/a')).toBeUndefined();
        await store.blobs.deletePrefix('workspaces/ws_l/chunked/u1');
        expect(await store.blobs.stat('workspaces/ws_l/chunked/u1/0')).toBeUndefined();
        expect(await store.blobs.stat('workspaces/ws_l/files/b')).toBeDefined();
      });

      it('takes ownership of a local file and hands out a local path', async () => {
        const { store } = await start();
        const tmp = join(store.tmpDir, 'incoming');
        await writeFile(tmp, 'from disk');
        expect(await store.blobs.putFile('workspaces/ws_f/files/x', tmp)).toEqual({ size: 9 });
        const local = await store.blobs.localFile('workspaces/ws_f/files/x');
        expect(local).toBeDefined();
        const { readFile } = await import('node:fs/promises');
        expect(await readFile(local!.path, 'utf8')).toBe('from disk');
        await local!.release();
        expect(await store.blobs.localFile('workspaces/ws_f/files/none')).toBeUndefined();
      });

      it('refuses keys that could escape their place', async () => {
        const { store } = await start();
        for (const key of ['../x', 'a/../../b', '/abs', 'a//b', 'a/./b', 'a\\b', 'a b', '']) {
          await expect(store.blobs.put(key, Buffer.from('x'))).rejects.toThrow();
        }
      });
    });

    describeUnitOfWorkContract(start);

    it('records the schema version', async () => {
      const handle = await start();
      await handle.store.setSchemaVersion(7);
      expect(await handle.store.schemaVersion()).toBe(7);
      expect(await (await handle.reopen()).schemaVersion()).toBe(7);
    });
  });
}
