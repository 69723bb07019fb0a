/**
 * A version whose item never came: no publication, so sync never shows it and the sweeper removes it. A publish
 * now writes both in one unit of work (versions/publication-model.ts `create`); only a publish by an older Folio, killed between
 * its two writes, left such versions behind. A version that arrived by sync (`receivedAt`) is no such leftover:
 * its item is sent after it, so it waits there.
 */
import type { Store } from '../../../store/types.js';
import { collectionsOf, type Kind, type VersionRecord } from '../collections.js';

/** How long a version without its item may be a publish still under way (its two writes go back to back). */
export const UNFINISHED_WAIT_MS = 30_000;

const KINDS: Kind[] = ['diagrams', 'charts', 'artifacts'];

/**
 * Which of `rows` are versions of a publish that has not written its item: `wait` while it may still be under way,
 * `skip` once it is too old to be.
 */
export async function unfinishedVersions(
  store: Store,
  kind: Kind,
  workspaceId: string,
  rows: VersionRecord[],
): Promise<Map<string, 'wait' | 'skip'>> {
  const verdicts = new Map<string, 'wait' | 'skip'>();
  const own = rows.filter((row) => !row.receivedAt);
  if (own.length === 0) return verdicts;
  const ids = [...new Set(own.map((row) => row.publicationId))];
  const items = await store.collection(collectionsOf(kind).items, workspaceId).all({ id: { in: ids } });
  const published = new Set(items.map((item) => item.id));
  for (const row of own)
    if (!published.has(row.publicationId))
      verdicts.set(row.id, Date.now() - Date.parse(row.createdAt) < UNFINISHED_WAIT_MS ? 'wait' : 'skip');
  return verdicts;
}

/** Removes versions of publishes that never wrote their item, written more than `graceMs` ago. */
export async function sweepUnfinished(store: Store, graceMs: number): Promise<number> {
  const cutoff = new Date(Date.now() - graceMs).toISOString();
  let swept = 0;
  for (const kind of KINDS) {
    const { versions } = collectionsOf(kind);
    const firsts = { version: 1, createdAt: { lt: cutoff } };
    for (const workspaceId of await store.workspacesWith(versions, firsts)) {
      const rows = await store.collection(versions, workspaceId).all(firsts);
      for (const [id] of await unfinishedVersions(store, kind, workspaceId, rows))
        if (await store.collection(versions, workspaceId).remove(id)) swept++;
    }
  }
  return swept;
}
