// Pull: the workspace's change feed as sync records, oldest first. Only kinds the key's services cover; a record not
// ready to sync (a transcript still running) is left out until its next change makes it ready; a write left half
// done is left out, and the page stops before it while it may still be finished (kinds' `syncable`).
import { conflict } from '../../../http/errors.js';
import type { ServiceName } from '../../../http/viewer.js';
import type { Store } from '../../../store/types.js';
import type { Kinds } from '../kinds/index.js';
import type { ChangesPage, SyncChange } from '../protocol/schema.js';
import { skipReason } from './plan.js';

/** A page stops growing past this many bytes of JSON (a long transcript's words add up). */
const PAGE_BYTES = 8 << 20;

export function createFeed({ store, kinds }: { store: Store; kinds: Kinds }) {
  const allowedKinds = (services: ServiceName[]) => kinds.list.filter((k) => services.includes(k.service));
  const skippedKinds = (services: ServiceName[]) =>
    kinds.list.filter((k) => !services.includes(k.service)).map((k) => skipReason(k.kind, k.service));

  /** The workspace's latest seq. */
  const head = async (workspaceId: string) =>
    (await store.changes(workspaceId, { since: Number.MAX_SAFE_INTEGER, limit: 1 })).head;

  async function changes(
    workspaceId: string,
    services: ServiceName[],
    query: { since: number; limit: number },
  ): Promise<ChangesPage> {
    const allowed = allowedKinds(services);
    const page = await store.changes(workspaceId, {
      ...query,
      collections: allowed.map((k) => k.collection.name),
    });
    if (query.since > page.head)
      throw conflict(
        `since=${query.since} is past this workspace's feed (head ${page.head}): it is not the feed you synced with; pull again from 0`,
      );
    const { changes: syncable, waitAt } = await kinds.syncable(workspaceId, page.changes);
    const out: SyncChange[] = [];
    let bytes = 0;
    for (const change of syncable) {
      const adapter = kinds.ofCollection(change.collection)!;
      if (change.row && !adapter.ready(change.row)) continue;
      const record = change.row ? adapter.payload(change.row) : null;
      const item = {
        seq: change.seq,
        kind: adapter.kind,
        id: change.id,
        deleted: !change.row,
        sha256: kinds.hash(adapter.kind, record),
        record,
      };
      bytes += JSON.stringify(item).length;
      if (out.length > 0 && bytes > PAGE_BYTES)
        return {
          changes: out,
          next: out.at(-1)!.seq,
          more: true,
          head: page.head,
          skipped: skippedKinds(services),
        };
      out.push(item);
    }
    // A change that must wait holds the page before it: a reader that moved past it would never meet it again.
    return {
      changes: out,
      next: waitAt === undefined ? page.next : waitAt - 1,
      more: waitAt === undefined && page.more,
      head: page.head,
      skipped: skippedKinds(services),
    };
  }

  return { changes, head, allowedKinds, skippedKinds };
}

export type Feed = ReturnType<typeof createFeed>;
