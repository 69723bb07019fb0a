/**
 * The positional cascade of /img/<preset>/<op>/<op>/:key: segments apply left to right and a later one
 * overrides what an earlier one set. Returns the effective ops and an explanation for the X-Folio-Transform header.
 */
import { badRequest } from '../../http/errors.js';
import { MAX_OUTPUT_EDGE } from './limits.js';
import { IMAGE_PRESETS } from './presets.js';
import { FITS, type Fit, FORMATS, type OutputFormat, type TransformOps } from './transform-ops.js';

export interface TransformChain {
  ops: TransformOps;
  /** Each segment as written and what it set, e.g. `thumb(w256,h256,fit-inside)`, `w128`. */
  steps: string[];
}

const MAX_SEGMENTS = 12;

export function parseTransformChain(segments: string[]): TransformChain {
  if (segments.length > MAX_SEGMENTS) throw badRequest(`At most ${MAX_SEGMENTS} transform steps are allowed`);
  const ops: TransformOps = {};
  const steps: string[] = [];
  for (const segment of segments) {
    const preset = IMAGE_PRESETS[segment];
    const step = preset ?? parseOp(segment);
    Object.assign(ops, step);
    steps.push(preset ? `${segment}(${describeOps(preset)})` : segment);
  }
  return { ops, steps };
}

function parseOp(op: string): TransformOps {
  const size = /^([wh])(\d{1,5})$/.exec(op);
  if (size) {
    const value = bounded(op, Number(size[2]), 1, MAX_OUTPUT_EDGE);
    return size[1] === 'w' ? { width: value } : { height: value };
  }
  const quality = /^q(\d{1,3})$/.exec(op);
  if (quality) return { quality: bounded(op, Number(quality[1]), 1, 100) };
  const fit = /^fit-(\w+)$/.exec(op);
  if (fit && (FITS as readonly string[]).includes(fit[1])) return { fit: fit[1] as Fit };
  if (op === 'jpg') return { format: 'jpeg' };
  if ((FORMATS as readonly string[]).includes(op) || op === 'auto')
    return { format: op as OutputFormat | 'auto' };
  throw badRequest(`Unknown image transform "${op}"`, {
    op,
    allowed: [
      'w<1-4096>',
      'h<1-4096>',
      `fit-${FITS.join('|')}`,
      'q<1-100>',
      ...FORMATS,
      'auto',
      ...Object.keys(IMAGE_PRESETS),
    ],
  });
}

function bounded(op: string, value: number, min: number, max: number): number {
  if (value < min || value > max)
    throw badRequest(`Image transform "${op}" is out of range (${min}-${max})`, { op });
  return value;
}

/** Canonical, order-free form of the effective ops: the cache key and the header's "effective" part. */
export function describeOps(ops: TransformOps): string {
  const parts: string[] = [];
  if (ops.width) parts.push(`w${ops.width}`);
  if (ops.height) parts.push(`h${ops.height}`);
  if (ops.fit) parts.push(`fit-${ops.fit}`);
  if (ops.quality) parts.push(`q${ops.quality}`);
  if (ops.format) parts.push(ops.format);
  return parts.join(',');
}

/** `auto` picks from Accept: AVIF, then WebP, else the fallback (the source's own web format). */
export function resolveFormat(ops: TransformOps, accept: string, fallback: OutputFormat): OutputFormat {
  if (ops.format && ops.format !== 'auto') return ops.format;
  if (ops.format !== 'auto') return fallback;
  if (/image\/avif/i.test(accept)) return 'avif';
  if (/image\/webp/i.test(accept)) return 'webp';
  return fallback;
}
