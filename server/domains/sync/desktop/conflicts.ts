// Conflict copies: when a local version loses to the server's (which has the later sequence), the local one is kept
// here, whole, before the winner is written over it; nothing is dropped. The dashboard lists them and the owner
// resolves each: keep the winner, or put the copy back (as a new edit, which the next sync pushes; a publication's
// version comes back as its next version, beside the winner).
import { conflict, notFound } from '../../../http/errors.js';
import { SERVICE_NAMES } from '../../../http/viewer.js';
import type { Row, Store } from '../../../store/types.js';
import { type ConflictRecord, syncConflicts } from '../collections.js';
import type { Kinds } from '../kinds/index.js';
import type { BlobFile } from '../kinds/types.js';
import { sha256Hex } from '../protocol/content-hash.js';
import type { SyncKind } from '../protocol/schema.js';
import type { Applier, RemoteVersion } from './apply.js';

export function createConflicts(deps: { store: Store; workspaceId: string; kinds: Kinds }) {
  const { store, workspaceId, kinds } = deps;
  const conflicts = store.collection(syncConflicts, workspaceId);
  const copyKey = (id: string) => `workspaces/${workspaceId}/sync-conflicts/${id}`;

  /**
   * Keeps the local version (`current`, or its deletion) as a copy, then writes the winner. The copy's id comes from
   * both versions, so a run that dies in between and meets the same pair again keeps one copy, not two.
   */
  async function keep(
    applier: Applier,
    kind: SyncKind,
    recordId: string,
    current: Row | undefined,
    winner: RemoteVersion,
  ): Promise<boolean> {
    const adapter = kinds.of(kind);
    const copyHash = kinds.hash(kind, current ? adapter.payload(current) : null);
    if (copyHash === winner.sha256) return applier.apply(kind, recordId, winner, current); // the same: nothing to keep
    const id = `cf_${sha256Hex(`${kind}\n${recordId}\n${copyHash}\n${winner.seq}`).slice(0, 24)}`;
    if (!(await conflicts.get(id))) {
      let blobKey: string | undefined;
      if (current && adapter.blobKey && winner.deleted) {
        // The winner deletes the record: its bytes would go with it, so the copy keeps its own.
        const bytes = await store.blobs.get(adapter.blobKey(workspaceId, current));
        if (bytes) {
          blobKey = copyKey(id);
          await store.blobs.put(blobKey, bytes);
        }
      }
      const row: ConflictRecord = {
        id,
        kind,
        recordId,
        status: 'open',
        detectedAt: new Date().toISOString(),
        copy: {
          deleted: !current,
          sha256: copyHash,
          record: current ? adapter.payload(current) : null,
          ...(blobKey && { blobKey }),
        },
        winner: { deleted: winner.deleted, sha256: winner.sha256, record: winner.record, seq: winner.seq },
      };
      await conflicts.insert(row).catch((error) => {
        if ((error as Error).name !== 'StoreConflict') throw error;
      });
    }
    return applier.apply(kind, recordId, winner, current);
  }

  async function get(id: string): Promise<ConflictRecord> {
    const found = await conflicts.get(id);
    if (!found) throw notFound('Conflict');
    return found;
  }

  /** `winner`: the copy is set aside. `copy`: the copy becomes the local version again, to be pushed next. */
  async function resolve(id: string, keepWhich: 'winner' | 'copy'): Promise<ConflictRecord> {
    const found = await get(id);
    if (found.status === 'resolved')
      throw conflict(`This conflict was already resolved (kept the ${found.resolution})`);
    if (keepWhich === 'copy') await restoreCopy(found);
    if (found.copy.blobKey) await store.blobs.delete(found.copy.blobKey);
    const resolved = await conflicts.update(
      id,
      { status: 'resolved', resolution: keepWhich, resolvedAt: new Date().toISOString() },
      { if: { status: 'open' } },
    );
    if (!resolved) throw conflict('This conflict was resolved meanwhile');
    return resolved;
  }

  /** Puts a copy back as the owner resolving it (a session: every service), as the copy was first made here. */
  async function restoreCopy({ kind, recordId, copy }: ConflictRecord): Promise<void> {
    const adapter = kinds.of(kind);
    const current = await store.collection(adapter.collection, workspaceId).get(recordId);
    if (copy.deleted) {
      if (current) await adapter.remove(workspaceId, recordId, current.seq ?? 0);
      return;
    }
    if (adapter.restoreCopy) {
      await adapter.restoreCopy(workspaceId, recordId, copy.record!, SERVICE_NAMES);
      return;
    }
    const written = await adapter.put(workspaceId, recordId, copy.record!, current?.seq ?? 0, {
      blobs: {
        file: async (): Promise<BlobFile | undefined> =>
          copy.blobKey ? store.blobs.localFile(copy.blobKey) : undefined,
      },
      services: SERVICE_NAMES,
    });
    if (!written)
      throw conflict('The record changed while resolving; look at it again and resolve once more');
  }

  return {
    keep,
    get,
    resolve,
    list: (status?: 'open' | 'resolved') =>
      conflicts.all(status ? { status } : {}, { orderBy: [['detectedAt', 'desc']] }),
    countOpen: () => conflicts.count({ status: 'open' }),
  };
}

export type Conflicts = ReturnType<typeof createConflicts>;
