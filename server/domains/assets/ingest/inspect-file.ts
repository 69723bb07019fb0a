/**
 * Checks a received file before it becomes an asset: type from the content, media facts, the upload's limits. On
 * any refusal the file is removed, so nothing partial remains; on success the caller hands it to the blob store.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { MAX_INPUT_PIXELS } from '../../../engines/image/limits.js';
import { payloadTooLarge, unprocessable, unsupportedMediaType } from '../../../http/errors.js';
import { type DetectedType, detectType } from './detect-type.js';
import { type MediaInfo, probeMedia } from './probe-media.js';

/** A received file on local disk, or (`bytes`) a small one held whole in memory, which never touches a temp file. */
export type IncomingFile = ({ path: string; bytes?: undefined } | { bytes: Buffer; path?: undefined }) & {
  filename: string;
  size?: number;
  sha256?: string;
  /** Used only when the bytes say nothing (octet-stream) and the hint is not an active type. */
  contentTypeHint?: string;
};

export interface FileRules {
  maxBytes?: number;
  /** Content types (`image/png`, `image/*`) or asset types (`image`). */
  allowedTypes?: string[];
}

export interface InspectedFile extends DetectedType, MediaInfo {
  size: number;
  sha256: string;
}

const ACTIVE_TYPES = /svg|html|xml|javascript/i;

export async function inspectFile(file: IncomingFile, rules: FileRules = {}): Promise<InspectedFile> {
  try {
    const source = file.bytes ?? file.path;
    const size = file.bytes !== undefined ? file.bytes.length : (file.size ?? (await stat(file.path)).size);
    if (rules.maxBytes !== undefined && size > rules.maxBytes)
      throw payloadTooLarge(`The file is larger than the ${rules.maxBytes}-byte limit of this upload`);
    const detected = withHint(await detectType(source, file.filename), file.contentTypeHint);
    if (rules.allowedTypes && !typeAllowed(detected, rules.allowedTypes)) {
      throw unsupportedMediaType(
        `This upload accepts ${rules.allowedTypes.join(', ')}; the file is ${detected.contentType}`,
      );
    }
    const media = await probeMedia(source, detected);
    if (media.width && media.height && media.width * media.height > MAX_INPUT_PIXELS) {
      throw unprocessable(
        `Image is ${media.width}×${media.height}; the limit is ${MAX_INPUT_PIXELS / 1e6} megapixels`,
      );
    }
    const sha256 = file.sha256 ?? (await hashOf(file));
    return { ...detected, ...media, size, sha256 };
  } catch (error) {
    if (file.path) await rm(file.path, { force: true });
    throw error;
  }
}

export function typeAllowed(detected: DetectedType, allowed: string[]): boolean {
  const mime = detected.contentType.split(';')[0];
  return allowed.some(
    (a) => a === detected.assetType || a === mime || (a.endsWith('/*') && mime.startsWith(a.slice(0, -1))),
  );
}

function withHint(detected: DetectedType, hint?: string): DetectedType {
  if (detected.contentType !== 'application/octet-stream' || !hint || ACTIVE_TYPES.test(hint))
    return detected;
  const kind = hint.split('/')[0];
  if (kind === 'audio' || kind === 'video') return { contentType: hint, assetType: kind };
  return detected;
}

async function hashOf(file: IncomingFile): Promise<string> {
  if (file.bytes !== undefined) return createHash('sha256').update(file.bytes).digest('hex');
  return hashFile(file.path);
}

async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path, { highWaterMark: 1 << 20 }), hash);
  return hash.digest('hex');
}
