// The export archive: a directory anyone can read. manifest.json lists every records file and every blob with its
// SHA-256; records are JSON lines in id order, one file per collection and scope; blobs are files named by key.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

export const ARCHIVE_FORMAT = 'folio-export';
export const ARCHIVE_VERSION = 1;

export type RecordsEntry = {
  collection: string;
  scope: 'instance' | string;
  file: string;
  rows: number;
  sha256: string;
};
export type BlobEntry = { key: string; size: number; sha256: string };

export type Manifest = {
  format: typeof ARCHIVE_FORMAT;
  version: number;
  schemaVersion: number;
  exportedAt: string;
  from: string;
  records: RecordsEntry[];
  blobs: BlobEntry[];
};

export const INSTANCE_SCOPE = 'instance';

export const recordsFile = (collection: string, scope: string) =>
  scope === INSTANCE_SCOPE
    ? join('records', 'instance', `${collection}.jsonl`)
    : join('records', 'workspaces', scope, `${collection}.jsonl`);

export const blobFile = (key: string) => join('blobs', ...key.split('/'));

export async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/** JSON with keys in a fixed order, so a row reads back equal whatever order a backend keeps its keys in. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}
