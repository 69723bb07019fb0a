// The storage contract. Capabilities speak only these interfaces; backends implement them: the file backend
// (lowdb snapshots + journals, blobs as files) is the embedded default, a PostgreSQL + S3 backend the hosted one.
// The contract tests in tests/server/store/ take a backend factory, so every backend runs the same suite.
// docs/storage.md explains the model.
import type { Readable } from 'node:stream';

/**
 * Every row has an id. Rows of a workspace collection also carry `seq`, stamped by the store on every write: the
 * position of that version in the workspace's change feed (`Store.changes`). A `seq` given to insert or update is
 * replaced, so no workspace record may use the name for a field of its own; instance collections have no feed and
 * leave `seq` alone.
 */
export type Row = { id: string; seq?: number };
/** A row as the store returns it: with its `seq` where the collection is a workspace's. */
export type Stored<T extends Row> = T & { seq?: number };
export type Scalar = string | number | boolean | null;

/** Types of the fields queries use. A hosted backend makes each an indexed column; the rest of a row is JSON. */
export type FieldType = 'text' | 'number' | 'boolean' | 'text[]';

export type CollectionSpec<T extends Row> = {
  name: string;
  /** `instance`: one collection for the instance (users, keys); `workspace`: one per workspace. */
  scope: 'instance' | 'workspace';
  /** The only fields `where`, `orderBy` and `search` may name (besides `id` and `seq`). */
  fields: Partial<Record<keyof T & string, FieldType>>;
  /** Fields unique across the instance, each findable without a workspace through `Store.lookup`. */
  unique?: Array<keyof T & string>;
  /** `text` fields `list` searches; a hosted backend gives each a substring (trigram) index. */
  search?: Array<keyof T & string>;
};

export const defineCollection = <T extends Row>(spec: CollectionSpec<T>): CollectionSpec<T> => spec;

/**
 * A condition on one field. A bare value is equality (`null` matches a missing field too); `hasAll`/`hasAny`
 * test a `text[]` field; ranges compare numbers, or ISO dates and other strings by code point.
 */
export type Condition =
  | Scalar
  | { ne: Scalar }
  | { in: Scalar[] }
  | { gt?: string | number; gte?: string | number; lt?: string | number; lte?: string | number }
  | { prefix: string }
  | { hasAll: string[] }
  | { hasAny: string[] };

/** `seq` may always be named: `update(id, patch, { if: { seq: n } })` writes only over the version `n`. */
export type Where<T extends Row> = Partial<Record<(keyof T & string) | 'seq', Condition>>;

export type OrderBy<T extends Row> = Array<[(keyof T & string) | 'seq', 'asc' | 'desc']>;

export type ListQuery<T extends Row> = {
  where?: Where<T>;
  /** Case-insensitive substring of any of `fields` (each a declared `text` field). */
  search?: { text: string; fields: Array<keyof T & string> };
  /** Default: newest first, `[['createdAt', 'desc']]`; `id` always breaks ties in the last direction. */
  orderBy?: OrderBy<T>;
  limit: number;
  /** A previous page's `nextCursor`, for the same where/search/orderBy. Malformed → `InvalidCursor`. */
  cursor?: string;
};

export type Page<T> = { rows: T[]; nextCursor: string | null };

export type UpdateOptions<T extends Row> = {
  /** Write only if the stored row matches: the store checks and writes in one step (single use, versions). */
  if?: Where<T>;
};

/** A patch replaces the named top-level fields; `undefined` values are ignored, `null` clears. */
export type Patch<T extends Row> = Partial<Omit<T, 'id' | 'seq'>>;

export interface Collection<T extends Row> {
  get(id: string): Promise<Stored<T> | undefined>;
  findOne(where: Where<T>): Promise<Stored<T> | undefined>;
  list(query: ListQuery<T>): Promise<Page<Stored<T>>>;
  /** Every matching row (sweeps, exports, start-up work), in `orderBy` order. */
  all(where?: Where<T>, options?: { orderBy?: OrderBy<T>; limit?: number }): Promise<Stored<T>[]>;
  count(where?: Where<T>): Promise<number>;
  /** Sum of a `number` field over the matching rows (usage). */
  sum(field: keyof T & string, where?: Where<T>): Promise<number>;
  /** Rejects with `StoreConflict` when the id or a unique field's value is taken. */
  insert(row: T): Promise<Stored<T>>;
  /** The updated row; `undefined` when the row is missing or `if` does not match (the loser of a race). */
  update(id: string, patch: Patch<T>, options?: UpdateOptions<T>): Promise<Stored<T> | undefined>;
  /** False when the row is missing or `if` does not match. A workspace row leaves a tombstone with its seq. */
  remove(id: string, options?: UpdateOptions<T>): Promise<boolean>;
  /** The seq of the delete that removed `id`, while that delete is its latest change (workspace collections). */
  tombstone(id: string): Promise<number | undefined>;
}

/**
 * One entry of a workspace's change feed: the latest change of one row. `row` is the row as that change left it,
 * with `seq`; `null` when the change was a delete (a tombstone).
 */
export type Change = { collection: string; id: string; seq: number; row: Row | null };

export type ChangeQuery = {
  /** Changes with a seq above this one: 0 for everything, else a previous page's `next`. */
  since: number;
  limit: number;
  /** Only these collections (by name); `next` still moves past the others. */
  collections?: string[];
};

export type ChangePage = {
  /** Oldest first; a row changed several times since `since` appears once, at its latest seq. */
  changes: Change[];
  /** Pass as the next `since`: every change up to it was returned (or filtered out). */
  next: number;
  /** True when the page stopped at `limit` and more changes follow. */
  more: boolean;
  /** The workspace's latest seq the feed can answer for: no write at or below it is still under way. */
  head: number;
};

export type BlobInfo = { key: string; size: number; modifiedAt: Date };
/** Inclusive byte range, as HTTP Range gives it. */
export type ByteRange = { start: number; end: number };

/**
 * Bytes by key (`workspaces/<id>/files/<assetId>`, `cache/img/...`): segments of letters, digits, `.`, `_`
 * and `-`, separated by `/`. Keys under a dropped workspace refuse writes with `ScopeGone`.
 */
export interface BlobStore {
  /** Streams `source` into `key`, replacing it; resolves once it is durable, with its size and SHA-256. */
  put(key: string, source: Readable | Buffer): Promise<{ size: number; sha256: string }>;
  /** Moves a finished local file (which the store now owns) into `key`: a rename on a file system. */
  putFile(key: string, path: string): Promise<{ size: number }>;
  /** The bytes, or a range of them; `undefined` when the key does not exist. */
  get(key: string, range?: ByteRange): Promise<Readable | undefined>;
  stat(key: string): Promise<BlobInfo | undefined>;
  delete(key: string): Promise<void>;
  deletePrefix(prefix: string): Promise<void>;
  list(prefix: string): AsyncIterable<BlobInfo>;
  /** The keys under `prefix` in batches, without each one's size or time (listings only: no `stat` per file). */
  keys(prefix: string): AsyncIterable<string[]>;
  /**
   * A local path for a tool that needs one (ffmpeg, the Whisper worker). `release` removes a temporary copy
   * where the backend had to make one; on a file system it is the blob's own path and does nothing.
   */
  localFile(key: string): Promise<{ path: string; release(): Promise<void> } | undefined>;
  /** The blob's own file when the backend is a local file system (zero-copy serving); else undefined. */
  pathOf(key: string): string | undefined;
}

/**
 * What a unit of work's `work` is handed: its workspace's collections and blobs. Row writes through `collection`
 * commit together; blobs put through `blobs` are deleted again if the unit does not commit.
 */
export interface UnitOfWork {
  /** One of the unit's workspace's collections (workspace scope only). */
  collection<T extends Row>(spec: CollectionSpec<T>): Collection<T>;
  blobs: Pick<BlobStore, 'put' | 'putFile'> & {
    /**
     * Leaves a blob this unit put in place even if the unit fails: its key turned out to belong to a row that is
     * not the unit's (a fixed id another writer took meanwhile, whose bytes the put wrote again).
     */
    disown(key: string): void;
  };
}

export interface Store {
  /** What backend this is, for the start-up lines and /health. */
  readonly backend: string;
  /**
   * Runs `work`: the rows it writes through `tx.collection` commit together when it resolves, and none of them
   * when it throws or the commit fails, which also deletes the blobs it put through `tx.blobs`. A write inside
   * the unit conflicts as it would outside (a conditional write that loses answers undefined, a taken unique
   * value throws), and the unit may go on from there. Inside `work`, write the workspace only through `tx`: a
   * write from outside to a row the unit holds waits for the unit to end. Blobs are put at once, so a crash
   * before the commit can still leave a blob without its record; the sweeps remove those.
   */
  unitOfWork<R>(workspaceId: string, work: (tx: UnitOfWork) => Promise<R>): Promise<R>;
  /** A workspace's collection. Rejects writes with `ScopeGone` once the workspace is dropped. */
  collection<T extends Row>(spec: CollectionSpec<T>, workspaceId: string): Collection<T>;
  /** An instance-wide collection. */
  instance<T extends Row>(spec: CollectionSpec<T>): Collection<T>;
  /** A row by a `unique` field across every workspace (public serve keys, secret hashes, slugs). */
  lookup<T extends Row>(
    spec: CollectionSpec<T>,
    field: keyof T & string,
    value: string,
  ): Promise<{ workspaceId: string; row: T } | undefined>;
  /**
   * What changed in a workspace's collections after `query.since`, in seq order, with paging. Seqs increase with
   * every write in the workspace and are never reused; a reader that has seen seq N never later meets a new
   * change at or below N (nothing is answered while a lower write is still under way), so `next` is a safe resume
   * point. Deletes appear as tombstones, kept for good.
   */
  changes(workspaceId: string, query: ChangeQuery): Promise<ChangePage>;
  /** Workspaces holding rows of `spec` (matching `where`, when given), for sweeps and queues across the instance. */
  workspacesWith<T extends Row>(spec: CollectionSpec<T>, where?: Where<T>): Promise<string[]>;
  blobs: BlobStore;
  /** Local scratch space for uploads in flight; emptied at start-up. */
  tmpDir: string;
  /** Removes a workspace's records and blobs for good: later writes into it fail, nothing re-creates it. */
  dropWorkspace(workspaceId: string): Promise<void>;
  /**
   * Takes one token from `id`'s bucket (`burst` tokens, refilled at `perMinute`) where every node of an instance
   * sees it; answers 0 when taken, else the seconds until one is back. Absent on a backend only one process uses,
   * where the buckets live in memory (http/rate-limit.ts).
   */
  takeToken?(id: string, perMinute: number, burst: number): Promise<number>;
  /**
   * Builds what a backend keeps in memory to answer `lookup` and unique checks for `specs` a slice at a time, so
   * that their first use later does not hold the event loop over every row (file backend). Called once serving
   * has begun; a use before it resolves builds what it needs at once.
   */
  prepareIndexes?(specs: CollectionSpec<Row>[]): Promise<void>;
  /**
   * Builds the indexes that narrow searches and tag filters for `specs`' loaded collections, a slice at a time
   * (file backend). Call once serving has begun: until they are built those queries read every row.
   */
  fillFindIndexes?(specs: CollectionSpec<Row>[]): Promise<void>;
  /** The data's schema version, which migrations (store/migrations/) move forward. */
  schemaVersion(): Promise<number>;
  setSchemaVersion(version: number): Promise<void>;
  close(): Promise<void>;
}
