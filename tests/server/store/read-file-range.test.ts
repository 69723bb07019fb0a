// A range of a file read into memory by position (server/store/file/read-file-range.ts): what sync reads out of
// packs on the hosted side and out of asset files on the desktop.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readFileRange } from '../../../server/store/file/read-file-range.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('readFileRange', () => {
  it('reads the bytes at an offset, fewer where the file ends, and nothing for a missing file', async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-range-'));
    const path = join(dir, 'pack');
    await writeFile(path, Buffer.from('0123456789'));
    expect((await readFileRange(path, 3, 4))?.toString()).toBe('3456');
    expect((await readFileRange(path, 8, 5))?.toString()).toBe('89');
    expect(await readFileRange(join(dir, 'gone'), 0, 4)).toBeUndefined();
  });
});
