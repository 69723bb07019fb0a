// What a store backend throws. http/error-boundary.ts maps each to its status; nothing here knows HTTP.

/** An insert hit a taken id or unique value. */
export class StoreConflict extends Error {
  constructor(
    readonly collection: string,
    readonly field: string,
    readonly value: string,
  ) {
    super(`${collection}: ${field} "${value}" is taken`);
    this.name = 'StoreConflict';
  }
}

/** A list cursor that no page of this query produced. */
export class InvalidCursor extends Error {
  constructor() {
    super('cursor is not valid; pass nextCursor from a previous page');
    this.name = 'InvalidCursor';
  }
}

/** A write into a workspace that was dropped (deleted while the write was in flight). */
export class ScopeGone extends Error {
  constructor(readonly workspaceId: string) {
    super('This workspace was deleted');
    this.name = 'ScopeGone';
  }
}

/** A query named a field its collection does not declare (a hosted backend has no column for it). */
export class UndeclaredField extends Error {
  constructor(collection: string, field: string) {
    super(`${collection} does not declare the field "${field}" for queries`);
    this.name = 'UndeclaredField';
  }
}

/**
 * The storage medium failed a write: `full` for ENOSPC/EDQUOT (no space or inodes), else an I/O error.
 * Nothing was acknowledged and memory still matches the disk.
 */
export class StorageFailure extends Error {
  readonly full: boolean;
  readonly code: string | undefined;
  constructor(cause: NodeJS.ErrnoException) {
    const full = cause.code === 'ENOSPC' || cause.code === 'EDQUOT';
    super(
      full
        ? 'The disk is full: free some space and try again'
        : `Storage failed: ${cause.code ?? cause.message}`,
      {
        cause,
      },
    );
    this.name = 'StorageFailure';
    this.full = full;
    this.code = cause.code;
  }
}

export const isStorageFailure = (error: unknown): error is StorageFailure => error instanceof StorageFailure;

/** Wraps file-system errors of a write: ENOSPC and friends become StorageFailure, the rest pass through. */
export function asStorageFailure(error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code && ['ENOSPC', 'EDQUOT', 'EIO', 'EROFS', 'EFBIG', 'EMFILE', 'ENFILE'].includes(code))
    return new StorageFailure(error as NodeJS.ErrnoException);
  return error;
}
