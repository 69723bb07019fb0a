import { describe, expect, it } from 'vitest';
import { findCatalogModel, modelCatalog } from '../../../../server/engines/whisper/model-catalog.js';

describe('model catalog', () => {
  it('lists the standard models with sizes and checksums', () => {
    expect(modelCatalog.map((m) => m.name)).toEqual([
      'tiny',
      'tiny.en',
      'base',
      'base.en',
      'small',
      'small.en',
      'medium',
      'medium.en',
      'large-v3',
      'large-v3-turbo',
    ]);
    for (const m of modelCatalog) {
      expect(m.file).toBe(`ggml-${m.name}.bin`);
      expect(m.sha1 ?? m.sha256).toMatch(/^[0-9a-f]{40}([0-9a-f]{24})?$/);
    }
    expect(findCatalogModel('ggml-base.en.bin')?.multilingual).toBe(false);
  });
});
