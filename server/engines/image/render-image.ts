/** One derivative with sharp: pixel-capped decode, EXIF rotation, no upscaling. Pure: no store, no HTTP. */
import sharp from 'sharp';
import { unprocessable } from '../../http/errors.js';
import { MAX_INPUT_PIXELS, SHARP_INPUT } from './limits.js';
import type { OutputFormat, TransformOps } from './transform-ops.js';

const DEFAULT_QUALITY: Record<OutputFormat, number> = { webp: 80, avif: 55, jpeg: 82, png: 100 };
/** Source types sharp's prebuilt libvips decodes (no HEIC/HEVC there); others are not served from /img. */
export const TRANSFORMABLE_TYPES = new Set([
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/avif',
  'image/tiff',
]);
const WEB_TYPES: Record<string, OutputFormat> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/gif': 'png',
};

export const CONTENT_TYPES: Record<OutputFormat, string> = {
  webp: 'image/webp',
  avif: 'image/avif',
  jpeg: 'image/jpeg',
  png: 'image/png',
};

export function defaultFormatFor(sourceType: string): OutputFormat {
  return WEB_TYPES[sourceType] ?? 'jpeg';
}

export async function renderImage(
  source: string,
  target: string,
  ops: TransformOps,
  format: OutputFormat,
): Promise<void> {
  const quality = ops.quality ?? DEFAULT_QUALITY[format];
  try {
    let image = sharp(source, SHARP_INPUT).rotate();
    if (ops.width || ops.height) {
      image = image.resize({
        width: ops.width,
        height: ops.height,
        fit: ops.fit ?? 'inside',
        withoutEnlargement: true,
      });
    }
    await image
      .toFormat(
        format,
        format === 'png' ? { compressionLevel: 6 } : { quality, effort: format === 'avif' ? 2 : undefined },
      )
      .toFile(target);
  } catch (error) {
    throw imageError(error);
  }
}

function imageError(error: unknown) {
  const message = error instanceof Error ? error.message : String(error);
  if (/pixel limit/i.test(message)) {
    return unprocessable(`Image exceeds the ${MAX_INPUT_PIXELS / 1e6} MP pixel limit`, {
      limitPixels: MAX_INPUT_PIXELS,
    });
  }
  return unprocessable('Image could not be decoded');
}
