/** The form fields of an upload (`displayName`, `tags`) as an asset's metadata, and the received file as one to inspect. */
import { badRequest } from '../../../http/errors.js';
import { DisplayName, Tags } from '../../assets/schema.js';
import type { IncomingFile, NewAssetMeta } from '../../assets/service.js';
import type { ReceivedFile } from './receive-multipart.js';

export const incoming = (received: ReceivedFile): IncomingFile => ({
  path: received.tmpPath,
  filename: received.filename,
  size: received.size,
  sha256: received.sha256,
});

export function metaFromFields(fields: Record<string, string>): NewAssetMeta {
  const meta: NewAssetMeta = {};
  if (fields.displayName !== undefined)
    meta.displayName = parseField('displayName', DisplayName, fields.displayName);
  if (fields.tags !== undefined) meta.tags = parseField('tags', Tags, splitTags(fields.tags));
  return meta;
}

function splitTags(value: string): unknown {
  if (value.trim().startsWith('[')) {
    try {
      return JSON.parse(value);
    } catch {
      throw badRequest('tags must be a comma-separated list or a JSON array of strings');
    }
  }
  return value
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

function parseField<T>(
  name: string,
  schema: {
    safeParse(
      v: unknown,
    ): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } };
  },
  value: unknown,
): T {
  const result = schema.safeParse(value);
  if (!result.success) throw badRequest(`Invalid ${name}: ${result.error.issues[0]?.message}`);
  return result.data;
}
