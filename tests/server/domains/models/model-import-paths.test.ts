// POST /api/v1/models/import with a path that is not a readable model file: a 400 that names what is wrong,
// never a 500 or a request that hangs (a FIFO blocks an open until a writer appears), and the server keeps
// serving. The server runs as an unprivileged user, so a file without read permission is really unreadable.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildTestServer, startChildTestServer } from '../../../helpers/child-test-server.js';
import { generateModel } from '../../../helpers/generate-model.js';

const NOBODY = { uid: 65534, gid: 65534 };
const asRoot = process.getuid?.() === 0;

let srv: ChildTestServer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'folio-import-'));
  chmodSync(dir, 0o755);
  generateModel(join(dir, 'good.bin'), { preset: 'micro', seed: 3 });
  generateModel(join(dir, 'locked.bin'), { preset: 'micro', seed: 4 });
  chmodSync(join(dir, 'locked.bin'), 0o000);
  chmodSync(join(dir, 'good.bin'), 0o644);
  mkdirSync(join(dir, 'folder.bin'));
  writeFileSync(
    join(dir, 'text.bin'),
    'this is not a ggml model, just text that is long enough to read a header',
  );
  writeFileSync(join(dir, 'short.bin'), 'lmgg');
  symlinkSync(join(dir, 'loop-b.bin'), join(dir, 'loop-a.bin'));
  symlinkSync(join(dir, 'loop-a.bin'), join(dir, 'loop-b.bin'));
  symlinkSync(join(dir, 'nowhere.bin'), join(dir, 'dangling.bin'));
  execFileSync('mkfifo', [join(dir, 'fifo.bin')]);
  srv = await startChildTestServer({}, { user: asRoot ? NOBODY : undefined });
});
afterAll(async () => {
  await srv?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const importPath = (path: string) =>
  fetch(`${srv.url}/api/v1/models/import`, {
    method: 'POST',
    headers: { cookie: srv.owner.cookie, origin: srv.url, 'content-type': 'application/json' },
    body: JSON.stringify({ path }),
    signal: AbortSignal.timeout(10_000),
  });

describe('importing a model from a bad path', () => {
  const cases: Array<[string, () => string, RegExp]> = [
    ['a directory', () => join(dir, 'folder.bin'), /is a directory/],
    ['a missing file', () => join(dir, 'missing.bin'), /no model file/],
    ['a file without read permission', () => join(dir, 'locked.bin'), /not readable/],
    ['a text file', () => join(dir, 'text.bin'), /not a ggml Whisper model/],
    ['a file shorter than a header', () => join(dir, 'short.bin'), /not a ggml Whisper model/],
    ['a symlink loop', () => join(dir, 'loop-a.bin'), /symlink loop/],
    ['a dangling symlink', () => join(dir, 'dangling.bin'), /no model file/],
    ['a FIFO', () => join(dir, 'fifo.bin'), /not a regular file/],
    ['a character device (/dev/zero)', () => '/dev/zero', /not a regular file/],
    ['a character device (/dev/null)', () => '/dev/null', /not a regular file/],
    ['a path through a file', () => join(dir, 'text.bin', 'x.bin'), /not a directory/],
    ['a name that is too long', () => join(dir, `${'a'.repeat(300)}.bin`), /too long/],
    ['a NUL byte', () => `${join(dir, 'good.bin')}\u0000.txt`, /NUL/],
    ['a relative path', () => 'good.bin', /absolute/],
    ['the root directory', () => '/', /is a directory/],
  ];

  for (const [label, path, problem] of cases) {
    it(`${label}: 400 naming the problem, and /health still answers`, async () => {
      const res = await importPath(path());
      const body = (await res.json()) as { error: string };
      expect(res.status).toBe(400);
      expect(body.error).toMatch(problem);
      expect((await fetch(`${srv.url}/health`)).status).toBe(200);
    });
  }

  it('a good model still imports afterwards, and nothing was installed by the bad ones', async () => {
    const res = await importPath(join(dir, 'good.bin'));
    expect(res.status).toBe(201);
    const overview = (await (
      await fetch(`${srv.url}/api/v1/models`, { headers: { cookie: srv.owner.cookie } })
    ).json()) as { installed: Array<{ file: string }> };
    expect(overview.installed.map((m) => m.file)).toEqual(['good.bin']);
  });
});
