/**
 * The publication model every kind shares (docs/api.md, "Visibility, slugs, versions"): slugs unique across the instance, versions (every
 * PUT is version N+1, every version kept), archive, visibility, lists by query, and the page-route gate.
 * The kind brings only its document and how it is checked and rendered.
 */
import { conflict, notFound } from '../../../http/errors.js';
import type { Viewer } from '../../../http/viewer.js';
import { StoreConflict } from '../../../store/errors.js';
import { newId } from '../../../store/ids.js';
import type { Store } from '../../../store/types.js';
import {
  collectionsOf,
  type Kind,
  type PublicationRecord,
  searchTextOf,
  type VersionRecord,
  type Visibility,
  versionId,
} from '../collections.js';
import { raiseItem } from './raise-item.js';
import { slugFromTitle } from './slugs.js';

export type Meta = { title: string; description?: string; tags?: string[]; kind?: string };
export type NewVersion = Partial<Meta> & { document: unknown; derived?: Record<string, unknown> };
export type ListQuery = {
  q?: string;
  tag?: string[];
  kind?: string;
  includeArchived?: boolean;
  limit: number;
  cursor?: string;
};
export type Found = { item: PublicationRecord; version: VersionRecord; workspaceId: string };

type Owners = { get(id: string): Promise<{ ownerId: string } | undefined> };

const NOUN: Record<Kind, string> = { diagrams: 'Diagram', charts: 'Chart', artifacts: 'Artifact' };
const MAX_PUT_RETRIES = 20;

export function createPublications({
  store,
  kind,
  workspaces,
}: {
  store: Store;
  kind: Kind;
  workspaces: Owners;
}) {
  const specs = collectionsOf(kind);
  const items = (workspaceId: string) => store.collection(specs.items, workspaceId);
  const versions = (workspaceId: string) => store.collection(specs.versions, workspaceId);
  const noun = NOUN[kind];
  const now = () => new Date().toISOString();

  async function itemBySlug(workspaceId: string, slug: string): Promise<PublicationRecord> {
    const item = await items(workspaceId).findOne({ slug });
    if (!item) throw notFound(noun);
    return item;
  }

  async function versionOf(workspaceId: string, item: PublicationRecord, version = item.version) {
    const found = await versions(workspaceId).get(versionId(item.id, version));
    if (!found) throw notFound(`${noun} version ${version}`);
    return found;
  }

  /** Version 1 under the given slug (409 when taken) or one generated from the title. */
  async function create(workspaceId: string, input: Meta & NewVersion & { slug?: string }): Promise<Found> {
    const at = now();
    const id = newId(kind.slice(0, 3));
    const meta = {
      title: input.title,
      description: input.description,
      tags: input.tags ?? [],
      kind: input.kind,
    };
    const version: VersionRecord = {
      id: versionId(id, 1),
      publicationId: id,
      version: 1,
      ...meta,
      document: input.document,
      derived: input.derived,
      createdAt: at,
    };
    // One unit: a publish killed midway leaves neither its version nor its item.
    return store.unitOfWork(workspaceId, async (tx) => {
      await tx.collection(specs.versions).insert(version);
      for (let attempt = 0; ; attempt++) {
        const item = firstItemOf(id, input.slug ?? slugFromTitle(input.title), meta, at);
        try {
          return { item: await tx.collection(specs.items).insert(item), version, workspaceId };
        } catch (error) {
          if (error instanceof StoreConflict && !input.slug && attempt < 5) continue;
          if (error instanceof StoreConflict && input.slug)
            throw conflict(`Slug "${input.slug}" is taken; choose another or leave it out to get one`);
          throw error;
        }
      }
    });
  }

  /**
   * Version N+1. The version row's id carries its number, so of two PUTs racing for the same number one
   * insert fails and that PUT takes the next number: every PUT gets its own version, none is lost.
   */
  async function update(workspaceId: string, slug: string, input: NewVersion): Promise<Found> {
    const item = await itemBySlug(workspaceId, slug);
    const meta = {
      title: input.title ?? item.title,
      description: input.description ?? item.description,
      tags: input.tags ?? item.tags,
      kind: input.kind ?? item.kind,
    };
    for (let next = item.version + 1, tries = 0; tries < MAX_PUT_RETRIES; next++, tries++) {
      const version: VersionRecord = {
        id: versionId(item.id, next),
        publicationId: item.id,
        version: next,
        ...meta,
        document: input.document,
        derived: input.derived,
        createdAt: now(),
      };
      try {
        await versions(workspaceId).insert(version);
      } catch (error) {
        if (error instanceof StoreConflict) continue;
        throw error;
      }
      // only forward: a slower PUT with a lower number does not roll the item back
      const raised = await raiseItem(items(workspaceId), version);
      return { item: raised ?? (await itemBySlug(workspaceId, slug)), version, workspaceId };
    }
    throw conflict('Too many versions were published at once; try again');
  }

  async function get(workspaceId: string, slug: string, version?: number): Promise<Found> {
    const item = await itemBySlug(workspaceId, slug);
    return { item, version: await versionOf(workspaceId, item, version), workspaceId };
  }

  function list(workspaceId: string, query: ListQuery) {
    const q = query.q?.trim().toLowerCase();
    return items(workspaceId).list({
      where: {
        ...(query.includeArchived ? {} : { archived: false }),
        ...(query.tag?.length ? { tags: { hasAll: query.tag } } : {}),
        ...(query.kind ? { kind: query.kind } : {}),
      },
      search: q ? { text: q, fields: ['searchText'] } : undefined,
      limit: query.limit,
      cursor: query.cursor,
    });
  }

  /** Every version, newest first, without documents. */
  async function history(workspaceId: string, slug: string) {
    const item = await itemBySlug(workspaceId, slug);
    const rows = await versions(workspaceId).all(
      { publicationId: item.id },
      { orderBy: [['version', 'desc']] },
    );
    return rows.map(({ version, title, createdAt }) => ({ version, title, createdAt }));
  }

  async function patch(
    workspaceId: string,
    slug: string,
    change: Partial<Pick<PublicationRecord, 'archived' | 'visibility'>>,
  ) {
    const item = await itemBySlug(workspaceId, slug);
    const updated = await items(workspaceId).update(item.id, { ...change, updatedAt: now(), ownSeq: null });
    if (!updated) throw notFound(noun);
    return { item: updated, version: await versionOf(workspaceId, updated), workspaceId };
  }

  /**
   * A page route's view of a slug (docs/api.md, "Visibility, slugs, versions"): unlisted and public items to anyone, private ones only to a
   * session of the owning workspace's owner, archived ones to nobody; 404 alike for all the rest.
   */
  async function forPage(slug: string, viewer: Viewer, version?: number): Promise<Found> {
    const found = await store.lookup(specs.items, 'slug', slug);
    if (!found || found.row.archived) throw notFound(noun);
    const { row: item, workspaceId } = found;
    if (item.visibility === 'private' && !(await ownsWorkspace(viewer, workspaceId))) throw notFound(noun);
    return { item, version: await versionOf(workspaceId, item, version), workspaceId };
  }

  async function ownsWorkspace(viewer: Viewer, workspaceId: string): Promise<boolean> {
    if (viewer.kind !== 'session' || !viewer.approved || !viewer.userId) return false;
    return (await workspaces.get(workspaceId))?.ownerId === viewer.userId;
  }

  /** The latest version number of a slug in a workspace (for embeds), or undefined. */
  async function latestOf(workspaceId: string, slug: string) {
    const item = await items(workspaceId).findOne({ slug });
    return item && !item.archived ? item : undefined;
  }

  return {
    create,
    update,
    get,
    list,
    history,
    archive: (ws: string, slug: string) => patch(ws, slug, { archived: true }),
    unarchive: (ws: string, slug: string) => patch(ws, slug, { archived: false }),
    setVisibility: (ws: string, slug: string, visibility: Visibility) => patch(ws, slug, { visibility }),
    forPage,
    latestOf,
    count: (workspaceId: string) => items(workspaceId).count(),
  };
}

export type Publications = ReturnType<typeof createPublications>;

/** A new publication's item: private, at version 1. */
function firstItemOf(
  id: string,
  slug: string,
  meta: Meta & { tags: string[] },
  at: string,
): PublicationRecord {
  const searchText = searchTextOf(meta);
  return {
    id,
    slug,
    ...meta,
    visibility: 'private',
    archived: false,
    version: 1,
    searchText,
    createdAt: at,
    updatedAt: at,
  };
}
