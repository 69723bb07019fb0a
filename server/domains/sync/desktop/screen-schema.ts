/** The desktop's own sync routes: settings, status, run now, conflicts (the dashboard's sync screen reads these). */
import { z } from 'zod';
import { SyncKind } from '../protocol/schema.js';

export const SyncSettingsBody = z
  .strictObject({
    remoteUrl: z
      .url({ protocol: /^https?$/, message: 'remoteUrl must be an http(s) URL of the hosted Folio' })
      .max(2000)
      .optional(),
    key: z
      .string()
      .regex(/^fk_[A-Za-z0-9]{20,100}$/, 'key must be an API key of the hosted Folio (fk_...)')
      .optional(),
    enabled: z.boolean().optional(),
    intervalMinutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'send remoteUrl and key, enabled or intervalMinutes');
export type SyncSettingsBody = z.infer<typeof SyncSettingsBody>;

export const SyncSettings = z.object({
  enabled: z.boolean(),
  remoteUrl: z.string().nullable(),
  keyPrefix: z.string().nullable().describe('The start of the hosted key; the key itself is never shown'),
  keyStorage: z.enum(['safeStorage', 'file']).describe('Where the key is kept on this machine'),
  intervalMinutes: z.number().int(),
  remoteWorkspace: z.object({ id: z.string(), name: z.string() }).nullable(),
});
export type SyncSettings = z.infer<typeof SyncSettings>;

const Phase = z.object({
  done: z.number(),
  total: z.number(),
  bytesDone: z.number(),
  bytesTotal: z.number(),
});
const ItemError = z.object({ kind: z.string(), id: z.string(), phase: z.string(), error: z.string() });
const SkippedKind = z.object({
  kind: z.string(),
  service: z.string(),
  reason: z.string(),
  count: z.number().int().optional(),
});

export const RunSummary = z.object({
  startedAt: z.string(),
  finishedAt: z.string(),
  ok: z.boolean(),
  error: z.string().optional(),
  offline: z.boolean().optional(),
  counts: z.record(z.string(), z.number()),
  errors: z.array(ItemError),
  skipped: z.array(SkippedKind),
});

export const SyncStatus = z.object({
  enabled: z.boolean(),
  configured: z.boolean(),
  state: z.enum(['off', 'idle', 'running', 'offline', 'failing']),
  running: z
    .object({
      startedAt: z.string(),
      phase: z.enum(['plan', 'upload', 'push', 'pull']).nullable(),
      phases: z.record(z.string(), Phase),
      counts: z.record(z.string(), z.number()),
      errors: z.array(ItemError),
    })
    .nullable(),
  lastRun: RunSummary.nullable(),
  lastSuccessAt: z.string().nullable(),
  nextRunAt: z.string().nullable(),
  consecutiveFailures: z.number().int(),
  openConflicts: z.number().int(),
  failingItems: z.number().int().describe('Records whose last attempt failed; each run tries them again'),
});
export type SyncStatus = z.infer<typeof SyncStatus>;

export const RunSyncBody = z
  .strictObject({
    full: z.boolean().default(false).describe('Plan every record again, not only what changed'),
  })
  .default({ full: false });

const VersionCopy = z.object({
  deleted: z.boolean(),
  sha256: z.string(),
  record: z.record(z.string(), z.unknown()).nullable(),
  seq: z.number().int().optional(),
  hasBytes: z.boolean().optional().describe('The copy kept its own bytes (the winner deleted the asset)'),
});

export const Conflict = z.object({
  id: z.string(),
  kind: SyncKind,
  recordId: z.string(),
  status: z.enum(['open', 'resolved']),
  detectedAt: z.string(),
  winner: VersionCopy.describe('The hosted version, which won: it is what the record is now'),
  copy: VersionCopy.describe('This machine’s version, which lost, kept whole'),
  resolvedAt: z.string().nullable().optional(),
  resolution: z.enum(['winner', 'copy']).nullable().optional(),
});
export type Conflict = z.infer<typeof Conflict>;

export const ConflictList = z.object({ data: z.array(Conflict) });
export const ConflictListQuery = z.object({ status: z.enum(['open', 'resolved', 'all']).default('open') });
export const ConflictParams = z.object({ id: z.string().min(1).max(64) });
export const ResolveBody = z.strictObject({
  keep: z
    .enum(['winner', 'copy'])
    .describe('`winner`: keep the hosted version; `copy`: put this machine’s back'),
});
