/** The sync protocol's request and response shapes (docs/sync.md); the desktop's own sync routes are in desktop/schema.ts. */
import { z } from 'zod';

export const SYNC_KINDS = [
  'asset',
  'transcript',
  'diagram-version',
  'diagram',
  'chart-version',
  'chart',
  'artifact-version',
  'artifact',
] as const;
export const SyncKind = z.enum(SYNC_KINDS);
export type SyncKind = z.infer<typeof SyncKind>;

/** The hash of a record that is deleted (a tombstone) rather than a SHA-256 of content. */
export const DELETED = 'deleted';

const Hex64 = z
  .string()
  .regex(/^[0-9a-f]{64}$/, 'must be 64 lower-case hex characters (SHA-256)')
  .describe('SHA-256, hex');
export const Sha256 = Hex64;
export const RecordHash = z
  .union([Hex64, z.literal(DELETED)])
  .describe(`SHA-256 of the record, or "${DELETED}"`);
/** Ids travel between instances and end up in blob keys: letters, digits, `_` and `-` only. */
export const RecordId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'ids are 1–64 letters, digits, _ or -');
/** A publication's version is named by its publication and number: `<id>@<n>`. */
const VERSION_ID = /^([A-Za-z0-9_-]{1,64})@([1-9][0-9]{0,8})$/;
/** The publication and number of a version id, or undefined when `id` is not one. */
export function splitVersionId(id: string): { publicationId: string; number: number } | undefined {
  const match = VERSION_ID.exec(id);
  return match ? { publicationId: match[1], number: Number(match[2]) } : undefined;
}
const SyncId = z
  .string()
  .regex(
    /^[A-Za-z0-9_-]{1,64}(@[1-9][0-9]{0,8})?$/,
    'ids are 1–64 letters, digits, _ or - (versions: <id>@<n>)',
  );
/** Whether `id` has the form its kind's ids have: `<id>@<n>` for a version, a plain id for everything else. */
export const idFitsKind = ({ kind, id }: { kind: string; id: string }) =>
  kind.endsWith('-version') ? VERSION_ID.test(id) : RecordId.safeParse(id).success;
const Seq = z.number().int().min(0);

export const RecordRef = z.strictObject({
  kind: SyncKind,
  id: SyncId,
  rev: Seq.describe('The sender’s own seq of this version (with id and sha256, it names the push)'),
  baseSeq: Seq.describe('The server seq of the version this one was based on; 0 for none'),
  sha256: RecordHash,
});
export type RecordRef = z.infer<typeof RecordRef>;

export const BlobRef = z.strictObject({ sha256: Hex64, size: z.number().int().min(0) });
export type BlobRef = z.infer<typeof BlobRef>;

export const MAX_PLAN_RECORDS = 1000;
export const MAX_PUSH_RECORDS = 200;
export const MAX_PACK_BLOBS = 1000;

/** Adds an issue for every record whose id does not have its kind's form. */
function idsFitKinds(body: { records: Array<{ kind: string; id: string }> }, ctx: z.RefinementCtx) {
  body.records.forEach((record, i) => {
    if (!idFitsKind(record))
      ctx.addIssue({
        code: 'custom',
        path: ['records', i, 'id'],
        message: `a ${record.kind}'s id is ${record.kind.endsWith('-version') ? '<publication id>@<n>' : 'letters, digits, _ or - only'}`,
      });
  });
}

export const PlanBody = z
  .strictObject({
    records: z.array(RecordRef).max(MAX_PLAN_RECORDS).default([]),
    blobs: z.array(BlobRef).max(MAX_PACK_BLOBS).default([]),
  })
  .superRefine(idsFitKinds);
export type PlanBody = z.infer<typeof PlanBody>;

/** A kind the key cannot sync, and why. */
export const Skipped = z.object({
  kind: SyncKind,
  service: z.string(),
  reason: z.string(),
  count: z.number().int().optional(),
});
export type Skipped = z.infer<typeof Skipped>;

export const PlanAction = z.enum(['push', 'unchanged', 'conflict', 'skip']);
export const Plan = z.object({
  records: z.array(
    z.object({
      kind: SyncKind,
      id: z.string(),
      action: PlanAction,
      seq: Seq.describe('The server’s latest seq of this record (0: never existed)'),
      sha256: z.string().nullable().describe('The server’s hash of it (null: never existed)'),
    }),
  ),
  missingBlobs: z.array(z.string()),
  skipped: z.array(Skipped),
  totals: z.object({
    records: z.number().int(),
    push: z.number().int(),
    unchanged: z.number().int(),
    conflicts: z.number().int(),
    skipped: z.number().int(),
    blobs: z.number().int(),
    missingBlobs: z.number().int(),
    missingBytes: z.number().int(),
  }),
});
export type Plan = z.infer<typeof Plan>;

export const PushItem = RecordRef.extend({
  record: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('The record’s synced fields (absent for deletes)'),
  recordBlob: Hex64.optional().describe('Instead of `record`: a blob (uploaded in a pack) holding its JSON'),
});
export type PushItem = z.infer<typeof PushItem>;

export const PushBody = z
  .strictObject({
    records: z.array(PushItem).min(1).max(MAX_PUSH_RECORDS),
    idempotencyKey: z
      .string()
      .optional()
      .describe(
        'The Idempotency-Key, for callers that cannot send headers (MCP); the header wins when both come',
      ),
  })
  .superRefine(idsFitKinds);
export type PushBody = z.infer<typeof PushBody>;

export const ServerVersion = z.object({
  seq: Seq,
  deleted: z.boolean(),
  sha256: z.string().nullable(),
  record: z.record(z.string(), z.unknown()).nullable(),
});
export type ServerVersion = z.infer<typeof ServerVersion>;

export const PushOutcome = z.enum(['applied', 'unchanged', 'conflict', 'failed', 'skipped']);
export type PushOutcome = z.infer<typeof PushOutcome>;
export const PushResult = z.object({
  kind: SyncKind,
  id: z.string(),
  status: z
    .number()
    .int()
    .describe('As the record’s own request would answer: 200, 201, 409 (conflict), 4xx'),
  outcome: PushOutcome,
  seq: Seq.optional().describe('The server seq of the record now'),
  sha256: z.string().optional().describe('The server’s hash of the record now'),
  replayed: z.boolean().optional().describe('This push was applied before (same Idempotency-Key)'),
  server: ServerVersion.optional().describe('On 409: the version the server holds, which wins'),
  error: z.string().optional(),
  service: z.string().optional(),
});
export type PushResult = z.infer<typeof PushResult>;
export const PushAnswer = z.object({ results: z.array(PushResult) });

/**
 * A whole number as a query string carries it (digits only) or as an MCP tool's JSON does. `z.coerce.number()`
 * would read `since=` (and `%20`) as 0 and `1e2` or `0x10` as numbers, where each is a malformed value (400).
 */
const queryWholeNumber = (name: string, min: number, max = Number.MAX_SAFE_INTEGER) => {
  const range =
    max === Number.MAX_SAFE_INTEGER
      ? `${name} must be a whole number, at least ${min}`
      : `${name} must be a whole number from ${min} to ${max}`;
  return z
    .union(
      [
        z.int(),
        z
          .string()
          .regex(/^\d{1,16}$/)
          .transform(Number),
      ],
      { error: range },
    )
    .pipe(z.number().min(min, range).max(max, range));
};

export const ChangesQuery = z.object({
  since: queryWholeNumber('since', 0).default(0),
  limit: queryWholeNumber('limit', 1, 1000).default(500),
});

export const SyncChange = z.object({
  seq: Seq,
  kind: SyncKind,
  id: z.string(),
  deleted: z.boolean(),
  sha256: z.string(),
  record: z.record(z.string(), z.unknown()).nullable(),
});
export type SyncChange = z.infer<typeof SyncChange>;

export const ChangesPage = z.object({
  changes: z.array(SyncChange),
  next: Seq.describe('Pass as `since` for the next page'),
  more: z.boolean(),
  head: Seq,
  skipped: z.array(Skipped),
});
export type ChangesPage = z.infer<typeof ChangesPage>;

export const SyncInfo = z.object({
  workspace: z.object({ id: z.string(), name: z.string() }),
  services: z.array(z.string()),
  kinds: z.array(z.object({ kind: SyncKind, service: z.string(), allowed: z.boolean() })),
  skipped: z.array(Skipped),
  head: Seq,
  limits: z.object({
    planRecords: z.number().int(),
    pushRecords: z.number().int(),
    packBlobs: z.number().int(),
    jsonBytes: z.number().int(),
    uploadBytes: z.number().int(),
  }),
});
export type SyncInfo = z.infer<typeof SyncInfo>;

export const BeginPackBody = z.strictObject({
  blobs: z.array(BlobRef).min(1).max(MAX_PACK_BLOBS),
  partSize: z
    .number()
    .int()
    .min(1 << 10)
    .max(64 << 20)
    .optional(),
});
export type BeginPackBody = z.infer<typeof BeginPackBody>;

export const Pack = z.object({
  uploadId: z.string(),
  partSize: z.number().int(),
  partCount: z.number().int(),
  size: z.number().int(),
  expiresAt: z.string(),
});

export const PackStatus = Pack.extend({
  status: z.enum(['open', 'completed', 'aborted', 'expired']),
  missingParts: z.array(z.number().int()),
});

export const CompletedPack = z.object({
  stored: z.array(z.string()),
  failed: z.array(z.object({ sha256: z.string(), error: z.string() })),
});
export type CompletedPack = z.infer<typeof CompletedPack>;

export const FetchBlobsBody = z.strictObject({ blobs: z.array(Hex64).min(1).max(MAX_PACK_BLOBS) });

export const PackParams = z.object({ uploadId: z.string().min(1).max(64) });
export const PackPartParams = PackParams.extend({ index: z.string().max(20) });
export const BlobParams = z.object({ sha256: Hex64 });
