// Every command-line entry answers --help (and -h) with its usage on stdout and exit 0, and a flag it does not know
// with the problem and the usage on stderr and exit 2, before doing any work (no server, no build, no data folder).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

const entries = [
  { name: 'npm run serve', file: 'server/main.ts', usage: /^Usage: npm run serve -- /, flag: '--port <n>' },
  { name: 'npm start', file: 'scripts/start.ts', usage: /^Usage: npm start -- /, flag: '--port <n>' },
  {
    name: 'npm run folio',
    file: 'server/cli/main.ts',
    usage: /^Usage: npm run folio -- /,
    flag: '--data-dir',
  },
  {
    name: 'npm run sync',
    file: 'server/sync-cli.ts',
    usage: /^Usage: npm run sync -- /,
    flag: '--workspace',
  },
];

type Ran = { code: number; stdout: string; stderr: string };

/** `node --import tsx <file> <args>` with the data folder in a fresh directory, so nothing real is touched. */
function run(file: string, args: string[], dataDir: string): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', file, ...args],
      { cwd: ROOT, env: { ...process.env, FOLIO_DATA_DIR: dataDir }, timeout: 50_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'folio-cli-'));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe.each(entries)('$name', ({ file, usage, flag }) => {
  it.each(['--help', '-h'])(
    '%s prints the usage on stdout and exits 0 without doing anything',
    async (help) => {
      const dataDir = join(scratch, `help-${file.replace(/\W/g, '-')}${help}`);
      const ran = await run(file, [help], dataDir);
      expect(ran).toMatchObject({ code: 0, stderr: '' });
      expect(ran.stdout).toMatch(usage);
      expect(ran.stdout).toContain(flag);
      expect(ran.stdout).toMatch(/-h, --help/);
      expect(ran.stdout).not.toMatch(/^(Folio listening on http|dashboard: built|Syncing ")/m);
      expect(existsSync(dataDir)).toBe(false);
    },
  );

  it('an unknown flag prints the problem and the usage on stderr and exits 2', async () => {
    const dataDir = join(scratch, `bogus-${file.replace(/\W/g, '-')}`);
    const ran = await run(file, ['--bogus'], dataDir);
    expect(ran.code).toBe(2);
    expect(ran.stdout).toBe('');
    expect(ran.stderr).toMatch(/Unknown option '--bogus'/);
    expect(ran.stderr).toMatch(new RegExp(usage.source.slice(1), 'm'));
    expect(existsSync(dataDir)).toBe(false);
  });
});
