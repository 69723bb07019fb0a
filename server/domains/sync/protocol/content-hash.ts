// What identifies a version of a record across instances: the SHA-256 of its synced fields as canonical JSON (keys
// sorted, null and absent alike), and the idempotency key of one push of it.
import { createHash } from 'node:crypto';

/** JSON with object keys in code-point order at every depth; `null` and `undefined` fields are left out. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined && v !== null)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export const sha256Hex = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

/** The hash of one version of a record of `kind`, over the fields that sync. */
export const contentHash = (kind: string, fields: Record<string, unknown>) =>
  sha256Hex(canonicalJson({ kind, fields }));

/** One push of one version: the same (kind, id, rev, hash) is the same push, however often it is sent. */
export const pushKey = (item: { kind: string; id: string; rev: number; sha256: string }) =>
  sha256Hex(`${item.kind}\n${item.id}\n${item.rev}\n${item.sha256}`);

/** The Idempotency-Key of a push request: its items' keys, in order. */
export const batchKey = (items: Array<{ kind: string; id: string; rev: number; sha256: string }>) =>
  sha256Hex(items.map(pushKey).join('\n'));
