// Sync's own records. On the instance that receives pushes: receipts of applied pushes and blobs waiting for the
// record that uses them. On the desktop that syncs: what was last agreed per record, conflict copies, packs being
// uploaded, and the workspace's sync settings and cursors.
import { defineCollection } from '../../store/types.js';
import type { SyncKind } from './protocol/schema.js';

/**
 * An applied push, by its idempotency key: a retry answers the same instead of conflicting with itself.
 * (`recordSeq`, not `seq`: a workspace row's own `seq` is the store's stamp.)
 */
export type ReceiptRecord = {
  id: string;
  kind: SyncKind;
  recordId: string;
  recordSeq: number;
  sha256: string;
  createdAt: string;
};
export const syncReceipts = defineCollection<ReceiptRecord>({
  name: 'sync-receipts',
  scope: 'workspace',
  fields: { createdAt: 'text' },
});

/**
 * A blob that arrived in a pack, until a record takes it: alone (`workspaces/<id>/sync-blobs/<sha256>`, a pack of
 * one), or at `offset` in its pack (`workspaces/<id>/sync-packs/<pack>`), so small blobs are written once.
 */
export type StagedBlobRecord = {
  id: string;
  size: number;
  pack?: string;
  offset?: number;
  createdAt: string;
};
export const stagedBlobs = defineCollection<StagedBlobRecord>({
  name: 'sync-blobs',
  scope: 'workspace',
  fields: { createdAt: 'text', pack: 'text' },
});

/**
 * Per synced record (`<kind>:<id>`): the remote version both sides last agreed on (`remoteSeq`, `remoteHash`) and
 * the local version that matched it (`localSeq`, `localHash`). A local hash that differs means a local edit to push;
 * `error` keeps an item that failed for the next run; `pending`, a push whose answer never came; `pulling`, a
 * server version being written here whose agreement a killed run may never have recorded.
 */
export type SyncStateRecord = {
  id: string;
  kind: SyncKind;
  recordId: string;
  remoteSeq: number;
  remoteHash: string;
  localSeq: number;
  localHash: string;
  error?: string | null;
  errorAt?: string | null;
  /** A push sent and not yet answered (the run may have died): the next run asks whether the server applied it. */
  pending?: { rev: number; sha256: string } | null;
  /** The hash of a server version about to be written here: local content equal to it is that write, not an edit. */
  pulling?: string | null;
};
export const syncState = defineCollection<SyncStateRecord>({
  name: 'sync-state',
  scope: 'workspace',
  fields: { kind: 'text', error: 'text' },
});

export type VersionCopy = {
  deleted: boolean;
  sha256: string;
  record: Record<string, unknown> | null;
  /** The server seq (for the winner). */
  seq?: number;
  /** Where a losing asset's bytes were kept, when the winner deleted it. */
  blobKey?: string;
};

/** Two versions of one record met: `winner` (the server's, which has the later sequence) and the kept `copy`. */
export type ConflictRecord = {
  id: string;
  kind: SyncKind;
  recordId: string;
  status: 'open' | 'resolved';
  detectedAt: string;
  copy: VersionCopy;
  winner: VersionCopy;
  resolvedAt?: string | null;
  resolution?: 'winner' | 'copy' | null;
};
export const syncConflicts = defineCollection<ConflictRecord>({
  name: 'sync-conflicts',
  scope: 'workspace',
  fields: { status: 'text', kind: 'text', detectedAt: 'text' },
});

/** Where a pack's bytes come from: an asset's blob, or a record too large to send inline. */
export type PackSource = { blobKey: string } | { kind: SyncKind; recordId: string };
/** A pack being uploaded: kept until complete, so an interrupted upload resumes at its missing parts. */
export type PackRecord = {
  id: string;
  remote: string;
  blobs: Array<{ sha256: string; size: number; source: PackSource }>;
  size: number;
  createdAt: string;
};
export const syncPacks = defineCollection<PackRecord>({
  name: 'sync-packs',
  scope: 'workspace',
  fields: { createdAt: 'text' },
});

export type RunSummary = {
  startedAt: string;
  finishedAt: string;
  ok: boolean;
  /** The run as a whole failed (nothing or only part was done); `offline` when the host could not be reached. */
  error?: string;
  offline?: boolean;
  counts: Record<string, number>;
  errors: Array<{ kind: string; id: string; phase: string; error: string }>;
  skipped: Array<{ kind: string; service: string; reason: string; count?: number }>;
};

/**
 * The workspace's sync settings and cursors (one row, id `sync`). The key itself is never here: it is in the key
 * vault (key-vault.ts).
 */
export type SyncSettingsRecord = {
  id: 'sync';
  enabled: boolean;
  remoteUrl: string | null;
  keyPrefix: string | null;
  intervalMinutes: number;
  remoteWorkspaceId?: string | null;
  remoteWorkspaceName?: string | null;
  /** The kinds the key could sync at the last run (comma-separated): when that changes, everything is planned again. */
  syncedKinds?: string;
  /** Local feed position pushed up to, and the remote feed position pulled up to. */
  localSince: number;
  remoteSince: number;
  lastSuccessAt?: string | null;
  lastRun?: RunSummary | null;
  updatedAt: string;
};
export const syncSettings = defineCollection<SyncSettingsRecord>({
  name: 'sync-settings',
  scope: 'workspace',
  fields: { enabled: 'boolean' },
});

/** The collections sync keeps for itself; their writes are in the feed too, and the feed reader skips them. */
export const SYNC_COLLECTIONS = [
  syncReceipts,
  stagedBlobs,
  syncState,
  syncConflicts,
  syncPacks,
  syncSettings,
].map((c) => c.name);
