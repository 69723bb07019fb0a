/** What a part PUT and a complete check: part sizes and indexes, the content type, a declared digest. */
import type { IncomingMessage } from 'node:http';
import { badRequest, unsupportedMediaType } from '../../../http/errors.js';
import type { ChunkedUploadRecord } from './schema.js';

export const range = (n: number) => Array.from({ length: n }, (_, i) => i);

export function expectedSize(upload: ChunkedUploadRecord, index: number): number {
  return Math.min(upload.size, (index + 1) * upload.partSize) - index * upload.partSize;
}

export function parseIndex(upload: ChunkedUploadRecord, raw: string): number {
  if (!/^\d{1,9}$/.test(raw))
    throw badRequest(`Part index must be a whole number from 0 to ${upload.partCount - 1}; got "${raw}"`);
  const index = Number(raw);
  if (index >= upload.partCount)
    throw badRequest(
      `Part index ${index} is out of range: this upload has parts 0 to ${upload.partCount - 1}`,
    );
  return index;
}

export function checkContentType(type: string | undefined): void {
  const mime = (type ?? '').split(';')[0].trim().toLowerCase();
  if (mime && mime !== 'application/octet-stream' && mime !== 'application/offset+octet-stream')
    throw unsupportedMediaType('Send a part as raw bytes with Content-Type: application/octet-stream');
}

/** `X-Part-SHA256: <hex>` or `Content-Digest: sha-256=:<base64>:` (RFC 9530). */
export function declaredDigest(headers: IncomingMessage['headers']): string | undefined {
  const hex = headers['x-part-sha256'];
  if (typeof hex === 'string' && hex.trim()) {
    if (!/^[0-9a-fA-F]{64}$/.test(hex.trim())) throw badRequest('X-Part-SHA256 must be 64 hex characters');
    return hex.trim().toLowerCase();
  }
  const digest = headers['content-digest'];
  if (typeof digest !== 'string') return undefined;
  const match = /sha-256=:([A-Za-z0-9+/=]+):/i.exec(digest);
  if (!match) return undefined;
  const bytes = Buffer.from(match[1], 'base64');
  if (bytes.length !== 32) throw badRequest('Content-Digest sha-256 must be 32 bytes in base64');
  return bytes.toString('hex');
}

export function partsProblem(missing: number[], wrong: number[]): string {
  const list = (xs: number[]) =>
    xs.length > 20 ? `${xs.slice(0, 20).join(', ')} and ${xs.length - 20} more` : xs.join(', ');
  const problems = [
    ...(missing.length ? [`missing parts: ${list(missing)}`] : []),
    ...(wrong.length ? [`wrong-sized parts: ${list(wrong)}`] : []),
  ];
  return `Cannot complete the upload: ${problems.join('; ')}`;
}
