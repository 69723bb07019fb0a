/**
 * An item follows its newest version: its title, description, tags, kind and latest number are that version's.
 * Raising it to a version is no change of the item's own (slug, archived flag, visibility), so the item keeps in
 * `ownSeq` the seq its own last write left, and a sync push of the item based on that seq is not behind
 * (docs/sync.md, "Publications"): a version arriving just before its item's archive makes no conflict.
 */
import type { Collection, Stored } from '../../../store/types.js';
import { type PublicationRecord, searchTextOf, type VersionRecord } from '../collections.js';

/** Raises the item to `version` unless it is at a newer one already; undefined when it is, or is gone. */
export async function raiseItem(
  items: Collection<PublicationRecord>,
  version: VersionRecord,
): Promise<Stored<PublicationRecord> | undefined> {
  const { title, description, tags, kind } = version;
  const latest = {
    title,
    description: description ?? null,
    tags,
    kind: kind ?? null,
    version: version.version,
    searchText: searchTextOf({ title, description, tags }),
    updatedAt: version.createdAt,
  } as Partial<PublicationRecord>;
  // Each miss is another write that landed in between: read again and raise over it, unless it went further.
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    const item = await items.get(version.publicationId);
    if (!item || item.version > version.version) return undefined;
    const ownSeq = item.ownSeq ?? item.seq;
    const raised = await items.update(item.id, { ...latest, ownSeq }, { if: { seq: item.seq } });
    if (raised) return raised;
  }
  // Never lose the raise to a crowd of writers: raised without keeping the seq, a later push may only conflict.
  return items.update(version.publicationId, latest, { if: { version: { lte: version.version } } });
}

const MAX_TRIES = 50;
