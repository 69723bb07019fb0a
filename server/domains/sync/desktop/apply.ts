// Writes a remote version into the local workspace, only over the local version the caller looked at (a local edit
// made meanwhile is never overwritten: the write does not happen and the next run sees both), then records that
// both sides now agree. It writes as the desktop's owner, whose sync this is (a session: every service), so a
// version the hosted side took from its own session, embedding what the key cannot push, arrives all the same.
import { SERVICE_NAMES } from '../../../http/viewer.js';
import type { Row, Store } from '../../../store/types.js';
import type { Kinds } from '../kinds/index.js';
import type { BlobSource } from '../kinds/types.js';
import { DELETED, type ServerVersion, type SyncKind } from '../protocol/schema.js';
import type { SyncBook } from './state.js';

export type RemoteVersion = ServerVersion & { sha256: string };

export function createApplier(deps: {
  store: Store;
  workspaceId: string;
  kinds: Kinds;
  book: SyncBook;
  blobs: BlobSource;
}) {
  const { store, workspaceId, kinds, book, blobs } = deps;

  /** The local row and its hash (DELETED when there is none). */
  async function local(kind: SyncKind, id: string) {
    const adapter = kinds.of(kind);
    const collection = store.collection(adapter.collection, workspaceId);
    const row = await collection.get(id);
    return { row, hash: kinds.hash(kind, row ? adapter.payload(row) : null), collection };
  }

  /**
   * Applies `version` over `current` (the local row looked at, or none). False when the local record changed in
   * between; throws when the version cannot be written (invalid, bytes missing).
   */
  async function apply(
    kind: SyncKind,
    id: string,
    version: RemoteVersion,
    current: Row | undefined,
  ): Promise<boolean> {
    const adapter = kinds.of(kind);
    let written: unknown;
    if (version.deleted) written = current ? await adapter.remove(workspaceId, id, current.seq ?? 0) : true;
    else {
      const parsed = adapter.schema.safeParse(version.record);
      if (!parsed.success)
        throw new Error(
          `The hosted version is not a valid ${kind}: ${parsed.error.issues[0]?.message ?? ''}`,
        );
      written = await adapter.put(workspaceId, id, parsed.data, current?.seq ?? 0, {
        blobs,
        services: SERVICE_NAMES,
      });
    }
    if (!written) return false;
    const after = await local(kind, id);
    const localSeq = after.row?.seq ?? (await after.collection.tombstone(id)) ?? 0;
    await book.agree(kind, id, {
      remoteSeq: version.seq,
      remoteHash: version.deleted ? DELETED : version.sha256,
      localSeq,
      localHash: after.hash,
    });
    return true;
  }

  return { apply, local };
}

export type Applier = ReturnType<typeof createApplier>;
