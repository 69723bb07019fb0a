// Where the server stands on a record: its latest seq (row or tombstone, 0 if it never existed) and the hash of
// that version. Pushes and plans compare against this, never against a wall clock.
import type { Row, Store } from '../../../store/types.js';
import type { Kinds } from '../kinds/index.js';
import type { KindAdapter } from '../kinds/types.js';
import { DELETED, type ServerVersion } from '../protocol/schema.js';

/** `ownSeq`: the oldest seq a push may be based on and not be behind (kinds/types.ts); else `seq` itself. */
export type Head = { seq: number; ownSeq: number; hash: string; row: Row | undefined };

/** Whether a push based on `baseSeq` is based on the server's current version of the record. */
export const basedOnHead = (head: Head, baseSeq: number) => baseSeq >= head.ownSeq && baseSeq <= head.seq;

export function createHeads({ store, kinds }: { store: Store; kinds: Kinds }) {
  const headOfRow = (adapter: KindAdapter, row: Row): Head => ({
    seq: row.seq ?? 0,
    ownSeq: adapter.ownSeq?.(row) ?? row.seq ?? 0,
    hash: kinds.hash(adapter.kind, adapter.payload(row)),
    row,
  });

  /**
   * Heads of many ids of one kind: the rows by id (a few one by one, many in one query), a tombstone look-up for
   * the rest.
   */
  async function many(workspaceId: string, adapter: KindAdapter, ids: string[]): Promise<Map<string, Head>> {
    const collection = store.collection(adapter.collection, workspaceId);
    const heads = new Map<string, Head>();
    const rows =
      ids.length > 16
        ? await collection.all({ id: { in: ids } })
        : (await Promise.all(ids.map((id) => collection.get(id)))).filter((r) => r !== undefined);
    for (const row of rows) heads.set(row.id, headOfRow(adapter, row));
    for (const id of ids)
      if (!heads.has(id)) {
        const seq = (await collection.tombstone(id)) ?? 0;
        heads.set(id, { seq, ownSeq: seq, hash: DELETED, row: undefined });
      }
    return heads;
  }

  const one = async (workspaceId: string, adapter: KindAdapter, id: string) =>
    (await many(workspaceId, adapter, [id])).get(id)!;

  /** The version a 409 carries: the server's, which wins. */
  const version = (adapter: KindAdapter, head: Head): ServerVersion => ({
    seq: head.seq,
    deleted: !head.row,
    sha256: head.hash,
    record: head.row ? adapter.payload(head.row) : null,
  });

  return { many, one, version };
}

export type Heads = ReturnType<typeof createHeads>;
