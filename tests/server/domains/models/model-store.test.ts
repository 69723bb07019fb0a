import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importModel } from '../../../../server/domains/models/import-model.js';
import { createModelStore } from '../../../../server/domains/models/model-store.js';
import { generateModel } from '../../../helpers/generate-model.js';

describe('model import and store', () => {
  let root: string;
  let source: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'folio-models-'));
    source = join(root, 'my model.bin');
    generateModel(source, { preset: 'micro' });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('imports a valid model under a safe name and lists it', async () => {
    const dataDir = join(root, 'd1');
    const { path, header } = await importModel({ dataDir, sourcePath: source, file: 'ggml-micro.bin' });
    expect(header).toMatchObject({ audioState: 64, audioHead: 2, nMels: 80, ftype: 1 });
    expect(readFileSync(path).equals(readFileSync(source))).toBe(true);
    const [listed] = await createModelStore({ dataDir }).list();
    expect(listed).toMatchObject({ file: 'ggml-micro.bin', active: false, header: { audioState: 64 } });
  });

  it('rejects files that are not ggml Whisper models, and names already taken', async () => {
    const dataDir = join(root, 'd2');
    writeFileSync(join(root, 'fake.bin'), Buffer.from('<html>not a model</html>'.repeat(10)));
    await expect(importModel({ dataDir, sourcePath: join(root, 'fake.bin') })).rejects.toMatchObject({
      code: 'model_invalid',
    });
    await expect(importModel({ dataDir, sourcePath: source })).rejects.toMatchObject({ code: 'bad_name' }); // "my model.bin"
    await importModel({ dataDir, sourcePath: source, file: 'a.bin' });
    await expect(importModel({ dataDir, sourcePath: source, file: 'a.bin' })).rejects.toMatchObject({
      code: 'already_installed',
    });
  });

  it('persists the active model and resolves it, an override path winning', async () => {
    const dataDir = join(root, 'd3');
    const store = createModelStore({ dataDir });
    expect(await store.resolveActiveModel()).toBeUndefined();
    await importModel({ dataDir, sourcePath: source, file: 'ggml-micro.bin' });
    await expect(store.setActive('ggml-missing.bin')).rejects.toMatchObject({ code: 'not_installed' });
    await store.setActive('ggml-micro.bin');
    const again = createModelStore({ dataDir });
    expect((await again.resolveActiveModel())?.path).toBe(join(dataDir, 'models', 'ggml-micro.bin'));
    expect((await again.resolveActiveModel(source))?.path).toBe(source);
    await expect(again.resolveActiveModel(join(root, 'fake.bin'))).rejects.toMatchObject({
      code: 'model_invalid',
    });
    expect((await again.list())[0].active).toBe(true);
    await again.remove('ggml-micro.bin');
    expect(await again.resolveActiveModel()).toBeUndefined();
  });
});
