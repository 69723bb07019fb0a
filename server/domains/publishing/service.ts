/**
 * Publishing as another domain reaches it: each kind's items and versions as sync follows and writes them
 * (docs/sync.md, "Publications"), which versions belong to a publish never finished, and the slug rule a received
 * item is checked against. Publishing through the API stays with each kind's own service.
 */
import { conflict } from '../../http/errors.js';
import type { Row, Store, Stored } from '../../store/types.js';
import { collectionsOf, type Kind, type PublicationRecord, type VersionRecord } from './collections.js';
import { createSyncedPublications } from './sync/synced-publications.js';
import { sweepUnfinished, unfinishedVersions } from './sync/unfinished-publish.js';
import type { NewVersion, Publications } from './versions/publication-model.js';

export type { SyncedItem, SyncedVersion } from './sync/synced-publications.js';
export { Slug } from './versions/slugs.js';

export type PublishingServiceDeps = {
  store: Store;
  /** Each kind's publication model, as that kind's service built it. */
  publications: Record<Kind, Publications>;
};

export function createPublishingService({ store, publications }: PublishingServiceDeps) {
  function syncedKind(kind: Kind) {
    const collections = collectionsOf(kind);

    /**
     * Publishes a version as the next one of the item `publicationId`, as a PUT would. `version` is asked for once
     * the item is found: checking a document may render it, which a gone item need not wait for.
     */
    async function publishAgain(
      workspaceId: string,
      publicationId: string,
      version: () => Promise<NewVersion>,
    ) {
      const item = await store.collection(collections.items, workspaceId).get(publicationId);
      if (!item) throw conflict('The publication this version belongs to is gone');
      return (await publications[kind].update(workspaceId, item.slug, await version())).version;
    }

    return {
      kind,
      /** The collections a change feed follows: a row per item, a row per version. */
      collections,
      ...createSyncedPublications({ store, kind }),
      /** Which of these version rows belong to a publish that has not written its item (sync/unfinished-publish.ts). */
      unfinished: (workspaceId: string, rows: Row[]) =>
        unfinishedVersions(store, kind, workspaceId, rows as VersionRecord[]),
      /** The seq of an item row's own last write, which its versions raising it leave alone (versions/raise-item.ts). */
      ownSeq: (row: Row) => (row as Stored<PublicationRecord>).ownSeq ?? row.seq ?? 0,
      publishAgain,
    };
  }

  const kinds = {
    diagrams: syncedKind('diagrams'),
    charts: syncedKind('charts'),
    artifacts: syncedKind('artifacts'),
  };

  return {
    /** One kind's publications as sync reads and writes them. */
    synced: (kind: Kind) => kinds[kind],
    /** Removes versions of publishes that never wrote their item, written more than `graceMs` ago. */
    sweepUnfinished: (graceMs: number) => sweepUnfinished(store, graceMs),
  };
}

export type PublishingService = ReturnType<typeof createPublishingService>;
export type SyncedKind = ReturnType<PublishingService['synced']>;
