// The desktop's sync bookkeeping for one workspace: per-record agreement (sync-state) and the settings row with
// its cursors. Only one run per workspace writes these at a time (service.ts holds the lock).
import type { Store } from '../../../store/types.js';
import { type SyncSettingsRecord, type SyncStateRecord, syncSettings, syncState } from '../collections.js';
import type { SyncKind } from '../protocol/schema.js';

export const DEFAULT_INTERVAL_MINUTES = 5;

export const defaultSettings = (): SyncSettingsRecord => ({
  id: 'sync',
  enabled: false,
  remoteUrl: null,
  keyPrefix: null,
  intervalMinutes: DEFAULT_INTERVAL_MINUTES,
  localSince: 0,
  remoteSince: 0,
  updatedAt: new Date().toISOString(),
});

export function createSyncBook(store: Store, workspaceId: string) {
  const states = store.collection(syncState, workspaceId);
  const settingsRows = store.collection(syncSettings, workspaceId);
  const idOf = (kind: SyncKind, id: string) => `${kind}:${id}`;

  async function settings(): Promise<SyncSettingsRecord> {
    return (await settingsRows.get('sync')) ?? defaultSettings();
  }

  async function saveSettings(patch: Partial<Omit<SyncSettingsRecord, 'id'>>): Promise<SyncSettingsRecord> {
    const at = { ...patch, updatedAt: new Date().toISOString() };
    const updated = await settingsRows.update('sync', at);
    if (updated) return updated;
    return settingsRows.insert({ ...defaultSettings(), ...at }).catch(async (error) => {
      if ((error as Error).name !== 'StoreConflict') throw error;
      return (await settingsRows.update('sync', at))!;
    });
  }

  const state = (kind: SyncKind, id: string) => states.get(idOf(kind, id));

  /** Both sides agree on this record: remote version `remoteSeq`/`remoteHash` is local `localSeq`/`localHash`. */
  async function agree(
    kind: SyncKind,
    recordId: string,
    agreed: Pick<SyncStateRecord, 'remoteSeq' | 'remoteHash' | 'localSeq' | 'localHash'>,
  ): Promise<void> {
    const id = idOf(kind, recordId);
    const current = await states.get(id);
    const same =
      current &&
      !current.error &&
      current.remoteSeq === agreed.remoteSeq &&
      current.remoteHash === agreed.remoteHash &&
      current.localSeq === agreed.localSeq &&
      current.localHash === agreed.localHash &&
      !current.pending &&
      !current.pulling;
    if (same) return; // a no-op sync writes nothing
    const patch = { ...agreed, error: null, errorAt: null, pending: null, pulling: null };
    if (current && (await states.update(id, patch))) return;
    await states.insert({ id, kind, recordId, ...patch });
  }

  /**
   * The server's record moved to `remoteSeq` with the content agreed on (a version that arrived raised its item):
   * still agreed, and a local edit pushed later is based on the new seq, not behind it.
   */
  async function moved(kind: SyncKind, recordId: string, remoteSeq: number): Promise<void> {
    await states.update(idOf(kind, recordId), { remoteSeq });
  }

  /** Marks a record whose last push or pull failed, so the next run tries it again. */
  async function failed(kind: SyncKind, recordId: string, error: string): Promise<void> {
    const id = idOf(kind, recordId);
    const patch = { error, errorAt: new Date().toISOString() };
    if (await states.update(id, patch)) return;
    await states.insert({
      id,
      kind,
      recordId,
      remoteSeq: 0,
      remoteHash: '',
      localSeq: 0,
      localHash: '',
      ...patch,
    });
  }

  /** Notes a push about to be sent, so that a run killed before its answer can ask about it next time. */
  async function intend(kind: SyncKind, recordId: string, pending: { rev: number; sha256: string }) {
    const id = idOf(kind, recordId);
    if (await states.update(id, { pending })) return;
    await states
      .insert({ id, kind, recordId, remoteSeq: 0, remoteHash: '', localSeq: 0, localHash: '', pending })
      .catch(async (error) => {
        if ((error as Error).name !== 'StoreConflict') throw error;
        await states.update(id, { pending });
      });
  }

  /**
   * Notes a server version (`sha256`) about to be written over local content `baseline`, which is no local edit
   * (it matches the last agreement, is an earlier such write, or is the first sight of the record), so that a run
   * killed after the write but before `agree` does not take either for a local edit.
   */
  async function intendPull(kind: SyncKind, recordId: string, baseline: string, sha256: string) {
    const id = idOf(kind, recordId);
    if (await states.update(id, { localHash: baseline, pulling: sha256 })) return;
    await states.insert({
      id,
      kind,
      recordId,
      remoteSeq: 0,
      remoteHash: '',
      localSeq: 0,
      localHash: baseline,
      pulling: sha256,
    });
  }

  return {
    settings,
    saveSettings,
    state,
    agree,
    moved,
    intend,
    intendPull,
    failed,
    /** Records whose last attempt failed. */
    withErrors: () => states.all({ error: { ne: null } }),
    /** Forgets every agreement (another remote workspace, or a feed that went back): hashes decide again. */
    async forgetAll(): Promise<void> {
      for (const row of await states.all()) await states.remove(row.id);
    },
  };
}

export type SyncBook = ReturnType<typeof createSyncBook>;
