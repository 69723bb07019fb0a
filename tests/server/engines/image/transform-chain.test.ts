import { describe, expect, it } from 'vitest';
import {
  describeOps,
  parseTransformChain,
  resolveFormat,
} from '../../../../server/engines/image/transform-chain.js';

describe('image transform cascade', () => {
  it('applies a preset, then later ops override it', () => {
    const { ops, steps } = parseTransformChain(['thumb', 'w128', 'webp']);
    expect(ops).toEqual({ width: 128, height: 256, fit: 'inside', format: 'webp' });
    expect(steps).toEqual(['thumb(w256,h256,fit-inside)', 'w128', 'webp']);
  });
  it('lets a later op override an earlier one of the same kind', () => {
    expect(parseTransformChain(['w100', 'w200', 'q10', 'q90', 'png', 'jpg']).ops).toEqual({
      width: 200,
      quality: 90,
      format: 'jpeg',
    });
  });
  it('a preset after ops overrides them', () => {
    expect(parseTransformChain(['w10', 'og']).ops).toMatchObject({ width: 1200, height: 630, fit: 'cover' });
  });
  it('normalizes equivalent chains to the same cache key', () => {
    const a = describeOps(parseTransformChain(['h240', 'w320', 'fit-cover']).ops);
    const b = describeOps(parseTransformChain(['w320', 'fit-cover', 'h240']).ops);
    expect(a).toBe(b);
  });
  it.each(['blur5', 'w0', 'w4097', 'h99999', 'q0', 'q101', 'fit-crop', 'gif', '..', 'W320'])(
    'rejects %s with 400 naming it',
    (op) => {
      try {
        parseTransformChain([op]);
        expect.unreachable();
      } catch (error) {
        expect((error as { status: number }).status).toBe(400);
        expect((error as Error).message).toContain(op);
      }
    },
  );
  it('caps the number of steps', () =>
    expect(() => parseTransformChain(Array(13).fill('w10'))).toThrow(/At most/));
  it('auto picks AVIF, then WebP from Accept, else the fallback', () => {
    const ops = { format: 'auto' as const };
    expect(resolveFormat(ops, 'image/avif,image/webp,*/*', 'jpeg')).toBe('avif');
    expect(resolveFormat(ops, 'image/webp,*/*', 'jpeg')).toBe('webp');
    expect(resolveFormat(ops, '*/*', 'png')).toBe('png');
    expect(resolveFormat({}, 'image/webp', 'png')).toBe('png');
  });
});
