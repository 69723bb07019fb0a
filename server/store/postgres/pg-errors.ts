// PostgreSQL errors as the store's own: a unique violation is a StoreConflict naming the field, a full disk
// or an I/O error a StorageFailure; anything else passes through.
import { StorageFailure, StoreConflict } from '../errors.js';
import type { CollectionSpec, Row } from '../types.js';
import { tableOf, uniqueIndexOf } from './database.js';

type PgError = Error & { code?: string; constraint?: string };

const STORAGE_CODES: Record<string, string> = { '53100': 'ENOSPC', '58030': 'EIO' };

export function asStoreError<T extends Row>(
  error: unknown,
  spec?: CollectionSpec<T>,
  row?: Partial<T> | Record<string, unknown>,
): unknown {
  const { code, constraint } = (error ?? {}) as PgError;
  if (code === '23505' && spec) {
    const table = tableOf(spec.name);
    const field = (spec.unique ?? []).map(String).find((f) => uniqueIndexOf(table, f) === constraint) ?? 'id';
    const value = (row as Record<string, unknown> | undefined)?.[field];
    return new StoreConflict(spec.name, field, value === undefined ? '' : String(value));
  }
  if (code && STORAGE_CODES[code]) {
    const cause = Object.assign(new Error((error as Error).message), { code: STORAGE_CODES[code] });
    return new StorageFailure(cause);
  }
  return error;
}
