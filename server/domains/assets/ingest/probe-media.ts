/** Width/height of images (sharp header read, pixel-capped) and duration of audio/video (music-metadata, bounded). */
import sharp from 'sharp';
import { readDuration } from '../../../engines/media-facts/read-duration.js';
import type { AssetType } from './detect-type.js';

export interface MediaInfo {
  width?: number;
  height?: number;
  duration?: number;
}

/**
 * From a file's path, or from its bytes when they are all in memory. Never throws: an unreadable header just means
 * no dimensions (the upload itself stays valid).
 */
export async function probeMedia(
  source: string | Buffer,
  { assetType, contentType }: { assetType: AssetType; contentType: string },
): Promise<MediaInfo> {
  try {
    if (assetType === 'image') {
      // header only, so no pixel cap here: the caller compares the dimensions against MAX_INPUT_PIXELS
      const meta = await sharp(source, { limitInputPixels: false, failOn: 'none' }).metadata();
      return orient(meta.width, meta.height, meta.orientation);
    }
    if (assetType === 'audio' || assetType === 'video') {
      const duration = await readDuration(
        typeof source === 'string' ? { path: source } : { bytes: source, contentType },
      );
      return duration !== undefined ? { duration: Math.round(duration * 1000) / 1000 } : {};
    }
  } catch {
    // metadata is best-effort: an unreadable header leaves the asset without dimensions
  }
  return {};
}

function orient(width?: number, height?: number, orientation?: number): MediaInfo {
  if (width === undefined || height === undefined) return {};
  return orientation !== undefined && orientation >= 5 ? { width: height, height: width } : { width, height };
}
