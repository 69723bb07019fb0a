/**
 * Publications as sync writes them (docs/sync.md, "Publications"): versions arrive one by one and are only ever
 * created (or, when two sides made the same number, replaced by the server's, the other kept as a conflict copy);
 * the item follows its versions. An item's latest version, title, tags and kind are what its newest version on this
 * instance says, so they are derived here, never taken from the sender; its visibility is this instance's own and
 * never travels.
 */
import { badRequest, conflict, HttpError } from '../../../http/errors.js';
import { StoreConflict } from '../../../store/errors.js';
import type { Store, Stored } from '../../../store/types.js';
import {
  collectionsOf,
  type Kind,
  type PublicationRecord,
  searchTextOf,
  type VersionRecord,
  versionId,
} from '../collections.js';
import { raiseItem } from '../versions/raise-item.js';

/** What a version carries besides its id (`<item id>@<n>`). */
export type SyncedVersion = Omit<VersionRecord, 'id' | 'publicationId' | 'version'>;
/** What an item carries: the rest is derived from its versions (above) or is this instance's own. */
export type SyncedItem = Pick<PublicationRecord, 'slug' | 'archived' | 'createdAt' | 'updatedAt'>;

export function createSyncedPublications({ store, kind }: { store: Store; kind: Kind }) {
  const specs = collectionsOf(kind);
  const items = (workspaceId: string) => store.collection(specs.items, workspaceId);
  const versions = (workspaceId: string) => store.collection(specs.versions, workspaceId);
  const noun = kind.slice(0, -1);

  /** Version `<publicationId>@<n>`: created when `ifSeq` is 0, else put over the stored version `ifSeq` only. */
  async function putVersion(
    workspaceId: string,
    publicationId: string,
    number: number,
    fields: SyncedVersion,
    ifSeq: number,
  ): Promise<Stored<VersionRecord> | undefined> {
    const row: VersionRecord = {
      id: versionId(publicationId, number),
      publicationId,
      version: number,
      ...fields,
      receivedAt: new Date().toISOString(),
    };
    let written: Stored<VersionRecord> | undefined;
    if (ifSeq === 0)
      written = await versions(workspaceId)
        .insert(row)
        .catch((error) => {
          if (error instanceof StoreConflict) return undefined; // made meanwhile: not ours to overwrite
          throw error;
        });
    else {
      const { id, ...patch } = row;
      const cleared = { description: null, kind: null, derived: null };
      written = await versions(workspaceId).update(id, { ...cleared, ...patch } as Partial<VersionRecord>, {
        if: { seq: ifSeq },
      });
    }
    // The item takes its title, tags and number when it is its newest (or replaces its newest).
    if (written) await raiseItem(items(workspaceId), written);
    return written;
  }

  /**
   * The item `id`: created when `ifSeq` is 0 (at its newest version here, private, under its slug), else its
   * archived flag put over the stored version `ifSeq` only.
   */
  async function putItem(
    workspaceId: string,
    id: string,
    fields: SyncedItem,
    ifSeq: number,
  ): Promise<Stored<PublicationRecord> | undefined> {
    if (ifSeq !== 0) {
      const current = await items(workspaceId).get(id);
      if (current && current.slug !== fields.slug)
        throw badRequest(
          `A publication's slug never changes ("${current.slug}" here, "${fields.slug}" sent)`,
        );
      return items(workspaceId).update(
        id,
        { archived: fields.archived, updatedAt: fields.updatedAt, ownSeq: null },
        { if: { seq: ifSeq } },
      );
    }
    const [latest] = await versions(workspaceId).all(
      { publicationId: id },
      { orderBy: [['version', 'desc']], limit: 1 },
    );
    if (!latest) throw badRequest(`No version of ${id} has arrived; its versions are sent before it`);
    const { title, description, tags, kind: subKind } = latest;
    const item: PublicationRecord = {
      id,
      slug: fields.slug,
      title,
      ...(description !== undefined && { description }),
      tags,
      ...(subKind !== undefined && { kind: subKind }),
      visibility: 'private',
      archived: fields.archived,
      version: latest.version,
      searchText: searchTextOf(latest),
      createdAt: fields.createdAt,
      updatedAt: fields.updatedAt,
    };
    try {
      return await items(workspaceId).insert(item);
    } catch (error) {
      if (!(error instanceof StoreConflict)) throw error;
      if (await items(workspaceId).get(id)) return undefined; // made meanwhile: not ours to overwrite
      throw conflict(
        `The slug "${fields.slug}" is taken on this Folio by another publication, so this one cannot arrive; publish it again under another slug`,
      );
    }
  }

  /**
   * A version whose item exists is published, and the API never deletes one (an item's versions are its history),
   * so neither does sync. One without its item was left by a publish that died between its two writes.
   */
  async function removeVersion(workspaceId: string, id: string, ifSeq: number): Promise<boolean> {
    const version = await versions(workspaceId).get(id);
    if (version && (await items(workspaceId).get(version.publicationId)))
      throw notAllowed(
        `Version ${version.version} of this ${noun} is published, and published versions are never deleted`,
      );
    return versions(workspaceId).remove(id, { if: { seq: ifSeq } });
  }

  /** The API has no DELETE for a publication, only archive: so an item, and the slug it holds, stay. */
  async function removeItem(): Promise<boolean> {
    throw notAllowed(
      `A published ${noun} is never deleted, so its slug stays with it; archive it instead (POST /api/v1/${kind}/<slug>/archive)`,
    );
  }

  return { putVersion, putItem, removeVersion, removeItem };
}

/** What no route allows (405), refused as that record's own error. */
const notAllowed = (message: string) => new HttpError(405, message);

export type SyncedPublications = ReturnType<typeof createSyncedPublications>;
