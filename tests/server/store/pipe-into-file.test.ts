import { pbkdf2 } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pipeIntoFile } from '../../../server/store/file/pipe-into-file.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-pipe-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Keeps libuv's thread pool (4 threads) busy, so a file's open waits behind it as it does on a loaded server. */
function busyThreadPool(): Promise<void> {
  const runs = Array.from(
    { length: 4 },
    () => new Promise<void>((done) => pbkdf2('x', 'y', 100_000, 32, 'sha256', () => done())),
  );
  return Promise.all(runs).then(() => undefined);
}

function failingSource(): Readable {
  const source = new Readable({ read() {} });
  setImmediate(() => source.destroy(new Error('the client went away')));
  return source;
}

describe('pipeIntoFile', () => {
  it('settles a failed pipeline only after the file is opened and closed, so removing it afterwards leaves nothing', async () => {
    const path = join(dir, 'upload-1');
    const idle = busyThreadPool();
    await expect(pipeIntoFile(path, (out) => pipeline(failingSource(), out))).rejects.toThrow(/went away/);
    expect(existsSync(path)).toBe(true); // a bare pipeline() rejects before the open has run
    await rm(path, { force: true });
    await idle;
    expect(await readdir(dir)).toEqual([]);
  });

  it('writes at an offset of an existing file without touching the rest', async () => {
    const path = join(dir, 'parts.bin');
    await pipeIntoFile(path, (out) => pipeline(Readable.from([Buffer.from('aaaaaa')]), out));
    await pipeIntoFile(path, (out) => pipeline(Readable.from([Buffer.from('bb')]), out), {
      flags: 'r+',
      start: 2,
    });
    expect(await readFile(path, 'utf8')).toBe('aabbaa');
  });
});
