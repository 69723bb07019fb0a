// What sync needs to know about one kind of record: where it is stored, which service a key needs for it, which of
// its fields travel (and which of those the hash covers), which bytes it refers to, and how to write a version
// received from another instance without passing over a newer one. The same adapter runs on both sides.
import { z } from 'zod';
import { HttpError } from '../../../http/errors.js';
import type { ServiceName } from '../../../http/viewer.js';
import type { CollectionSpec, Row } from '../../../store/types.js';
import type { BlobRef, SyncKind } from '../protocol/schema.js';

export const Timestamp = z.string().datetime({ offset: true });

/** A version's synced fields, as they travel. */
export type Payload = Record<string, unknown>;

/**
 * A blob's bytes for a record writer: a local file it may move into place (it owns the file), or a small blob held
 * whole in memory.
 */
export type BlobFile = ({ path: string; bytes?: undefined } | { bytes: Buffer; path?: undefined }) & {
  release(): Promise<void>;
};
export type BlobSource = { file(blob: BlobRef): Promise<BlobFile | undefined> };

/**
 * Who a write comes from: where the bytes it refers to are, and the services it acts with, which bound what a
 * record may read or embed as they bound a REST call (docs/security.md). A key pushing here acts with its own;
 * the desktop's own sync, writing what it pulled or a kept copy, acts for its owner, a session, with every one.
 */
export type Sender = { blobs: BlobSource; services: readonly ServiceName[] };

export interface KindAdapter {
  kind: SyncKind;
  // biome-ignore lint/suspicious/noExplicitAny: each kind has its own record type
  collection: CollectionSpec<any>;
  service: ServiceName;
  /** Checks a payload received from another instance (never trusted as it comes). */
  schema: z.ZodType<Payload>;
  payload(row: Row): Payload;
  /** The part of a payload its hash covers (bookkeeping such as `updatedAt` travels but is not compared). */
  hashed(payload: Payload): Payload;
  /** False while the record is not in a state that syncs yet (a transcript still running). */
  ready(row: Row): boolean;
  /**
   * Rows of a write left half done (a publication version whose item was never written), by id: `wait` while the
   * rest may still come, so a feed stops before them (their seq stays put when it does); `skip` once it cannot.
   */
  withheld?(workspaceId: string, rows: Row[]): Promise<Map<string, 'wait' | 'skip'>>;
  blobs(payload: Payload): BlobRef[];
  /** This instance's blob key for the bytes a row refers to. */
  blobKey?(workspaceId: string, row: Row): string;
  /**
   * Writes a version: a new record when `ifSeq` is 0, else over the stored version `ifSeq` only. Undefined when
   * that no longer holds (someone wrote in between), so the caller can look again rather than overwrite.
   */
  put(
    workspaceId: string,
    id: string,
    payload: Payload,
    ifSeq: number,
    from: Sender,
  ): Promise<Row | undefined>;
  /**
   * The seq of the row's own last write, where later writes only derived from other records (an item raised by
   * its versions): a push based on any seq from there to the row's is not behind it. Without this, the row's seq.
   */
  ownSeq?(row: Row): number;
  /** Removes the record if it is still the version `ifSeq`. */
  remove(workspaceId: string, id: string, ifSeq: number): Promise<boolean>;
  /**
   * Records that must be written one after another, in `position` order, share a `lane` (the versions of one
   * publication); records without one are independent.
   */
  order?(id: string): { lane: string; position: number };
  /**
   * How a kept conflict copy comes back when it must not replace the winner (a publication's version is
   * published again as the next one); without this, the copy is written over the winner.
   */
  restoreCopy?(
    workspaceId: string,
    id: string,
    payload: Payload,
    services: readonly ServiceName[],
  ): Promise<Row>;
}

/** A push or write that cannot happen until bytes arrive: the blob was never uploaded, or is gone. */
export class MissingBlob extends HttpError {
  constructor(readonly sha256: string) {
    super(
      400,
      `The blob ${sha256} has not been uploaded; send it in a pack, then push again`,
      {},
      {},
      'missing_blob',
    );
    this.name = 'MissingBlob';
  }
}

/** The named fields of a row that have a value (null and absent are the same to a hash and to a schema). */
export function pickFields(row: object, fields: readonly string[]): Payload {
  const out: Payload = {};
  for (const field of fields) {
    const value = (row as Record<string, unknown>)[field];
    if (value !== null && value !== undefined) out[field] = value;
  }
  return out;
}
