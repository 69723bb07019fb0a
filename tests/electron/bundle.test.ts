// The packaged main process is one esbuild bundle, and the packaged app holds only what build/electron-builder.json
// names. This stages that layout: the files electron-builder's own matcher selects (its default exclusions
// included), node_modules beside them with the production dependencies only (no tsx, no esbuild), and the worker
// where the app's extra resources put it. It bundles the server host (everything main.ts runs but Electron) into it
// and runs it there, then runs the release's packaged-app check (scripts/check-package.ts) on the same files. What
// the server needs at run time must be in the package, built: no TypeScript ships (server/engines/prebuilt.ts).
import type { Stats } from 'node:fs';
import { copyFile, lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, matchesGlob, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { excludedExts, excludedNames, FileMatcher } from 'app-builder-lib/out/fileMatcher.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerHost } from '../../electron/server-host.js';
import { checkPackagedServer } from '../../scripts/check-package.js';
import { buildServer } from '../../scripts/lib/build-server.js';
import { bundleModule } from '../../scripts/lib/bundle-shell.js';
import { defaultWorkerPath } from '../../server/engines/whisper/whisper-engine.js';
import { ensureDashboard } from '../e2e/ensure-dashboard.js';
import { engineBuilt } from '../helpers/transcription.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const config = JSON.parse(await readFile(join(root, 'build/electron-builder.json'), 'utf8'));
const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
/** Development dependencies, and what only they bring: a package never holds them. */
const DEV_ONLY = new Set([...Object.keys(manifest.devDependencies), '@esbuild', '.bin']);
let stage: string;
/** What electron-builder would put in the app, found once. */
let packaged: string[];
let bundleDir: string;
let userData: string;
let host: ServerHost;
let cookie: string;

/** Repository files (node_modules and .git aside) that electron-builder puts in the app, as paths from the root. */
async function packagedFiles(): Promise<string[]> {
  const matcher = new FileMatcher(root, stage, (pattern) => pattern, config.files);
  // the defaults electron-builder adds around `files` (app-builder-lib fileMatcher.ts getMainFileMatchers)
  for (const pattern of [
    `!${config.directories.output}{,/**/*}`,
    `!${config.directories.buildResources}{,/**/*}`,
    '!**/node_modules/**',
  ])
    matcher.prependPattern(pattern);
  matcher.addPattern(`!**/*.{${excludedExts},pdb}`);
  matcher.addPattern(`!**/{${excludedNames}}`);
  const keep = matcher.createFilter();
  const files: string[] = [];
  async function walk(dir: string): Promise<void> {
    for (const name of await readdir(dir)) {
      const path = join(dir, name);
      if (path === join(root, 'node_modules') || path === join(root, '.git')) continue;
      const info: Stats = await lstat(path);
      if (info.isDirectory()) await walk(path);
      else if (info.isFile() && keep(path, info)) files.push(relative(root, path));
    }
  }
  await walk(root);
  return files;
}

/** node_modules as a package holds it: every installed package but the development dependencies, linked. */
async function productionModules(to: string): Promise<void> {
  const from = join(root, 'node_modules');
  await mkdir(to);
  for (const name of await readdir(from)) {
    if (DEV_ONLY.has(name)) continue;
    if (!name.startsWith('@')) {
      await symlink(join(from, name), join(to, name), 'dir');
      continue;
    }
    await mkdir(join(to, name));
    for (const inScope of await readdir(join(from, name)))
      if (!DEV_ONLY.has(`${name}/${inScope}`))
        await symlink(join(from, name, inScope), join(to, name, inScope), 'dir');
  }
}

beforeAll(async () => {
  await ensureDashboard();
  await buildServer(root);
  stage = await mkdtemp(join(tmpdir(), 'folio-packaged-'));
  packaged = await packagedFiles();
  for (const file of packaged) {
    await mkdir(dirname(join(stage, file)), { recursive: true });
    await copyFile(join(root, file), join(stage, file));
  }
  await productionModules(join(stage, 'node_modules'));
  // the worker as electron-builder's extraResources place it, outside the app
  await mkdir(join(stage, 'resources/whisper'), { recursive: true });
  const [whisper] = config.linux.extraResources as Array<{ filter: string[] }>;
  for (const name of await readdir(dirname(defaultWorkerPath)))
    if (whisper.filter.some((pattern) => matchesGlob(name, pattern)))
      await copyFile(join(dirname(defaultWorkerPath), name), join(stage, 'resources/whisper', name));
  // bundled two folders below the root, as bundleShell writes dist/electron/main.js, so each module's
  // import.meta.url points where its source lies in the package; then moved into the package
  bundleDir = await mkdtemp(join(root, 'dist', 'bundle-test-'));
  await mkdir(join(stage, 'dist/electron'), { recursive: true });
  for (const [entry, name] of [
    ['electron/server-host.ts', 'server-host.js'],
    ['electron/preload-path.ts', 'preload-path.js'],
  ]) {
    await bundleModule(join(root, entry), join(bundleDir, name));
    await copyFile(join(bundleDir, name), join(stage, 'dist/electron', name));
  }

  const bundled = (await import(
    pathToFileURL(join(stage, 'dist/electron/server-host.js')).href
  )) as typeof import('../../electron/server-host.js');
  userData = await mkdtemp(join(tmpdir(), 'folio-bundle-'));
  await writeFile(join(userData, 'settings.json'), JSON.stringify({ port: 4780, whisperThreads: 2 }));
  host = await bundled.startServerHost({ userData, appPath: stage });
  const signIn = await fetch(host.signInUrl, { redirect: 'manual' });
  cookie = signIn.headers.getSetCookie()[0].split(';')[0];
}, 120_000);
afterAll(async () => {
  await host?.close();
  for (const dir of [bundleDir, stage, userData]) if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the bundled main process, in the packaged layout', () => {
  it('starts the server: version from package.json, the dashboard from dist/renderer', async () => {
    const reference = await (await fetch(`${host.url}/api/v1/openapi.json`)).json();
    expect(reference.info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(await (await fetch(`${host.url}/`, { headers: { cookie } })).text()).toContain('<div id="root">');
  });

  it('renders a chart in a render process started from the packaged files', async () => {
    const spec = {
      data: { values: [{ a: 1 }, { a: 2 }] },
      mark: 'point',
      encoding: { x: { field: 'a', type: 'quantitative' } },
    };
    const res = await fetch(`${host.url}/api/v1/charts/preview?format=png`, {
      method: 'POST',
      headers: { cookie, origin: host.url, 'content-type': 'application/json' },
      body: JSON.stringify({ spec }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
  }, 120_000);

  it('serves the chart pages’ script, bundled from the packaged sources', async () => {
    const res = await fetch(`${host.url}/c/-/runtime.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('javascript');
    expect((await res.text()).length).toBeGreaterThan(100_000); // vega and its interpreter
  }, 60_000);

  it('gives the window the preload bundled beside main.js', async () => {
    const { preloadScript } = (await import(
      pathToFileURL(join(stage, 'dist/electron/preload-path.js')).href
    )) as typeof import('../../electron/preload-path.js');
    expect(preloadScript()).toBe(join(stage, 'dist/electron/preload.cjs')); // bundleShell writes it there
  });

  it('holds the built server and no TypeScript, tsx or esbuild', async () => {
    expect(packaged.filter((file) => /\.(ts|tsx|mts)$/.test(file))).toEqual([]);
    const built = JSON.parse(await readFile(join(stage, 'dist/server/browser/manifest.json'), 'utf8'));
    expect(Object.keys(built).sort()).toEqual(['chart-runtime', 'mcp-view']);
    for (const file of ['main.js', 'render-worker.mjs', 'duration-worker.mjs'])
      expect(packaged, file).toContain(`dist/server/${file}`);
    for (const devOnly of ['tsx', 'esbuild', 'vitest'])
      await expect(lstat(join(stage, 'node_modules', devOnly)), devOnly).rejects.toThrow();
  });

  it.skipIf(!engineBuilt)(
    'answers an agent from the package alone: a transcription, a chart page, a list',
    async () => {
      const seen = await checkPackagedServer({
        runtime: process.execPath,
        main: join(stage, 'dist/server/main.js'),
        worker: join(stage, 'resources/whisper/folio-whisper-worker'),
      });
      expect(seen).toHaveLength(3);
    },
    120_000,
  );
});
