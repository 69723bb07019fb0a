// The packaged main process is one esbuild bundle, and the packaged app holds only what build/electron-builder.json
// names. This stages that layout: the files electron-builder's own matcher selects (its default exclusions
// included) and node_modules beside them, as electron-builder adds the production dependencies. It bundles the
// server host (everything main.ts runs but Electron) into it and runs it there. What the server finds beside its
// own source at run time must be in the package: package.json, the dashboard, the render processes' entry and
// task modules, and the sources it bundles for browsers.
import type { Stats } from 'node:fs';
import { copyFile, lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { excludedExts, excludedNames, FileMatcher } from 'app-builder-lib/out/fileMatcher.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerHost } from '../../electron/server-host.js';
import { bundleModule } from '../../scripts/lib/bundle-shell.js';
import { ensureDashboard } from '../e2e/ensure-dashboard.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const config = JSON.parse(await readFile(join(root, 'build/electron-builder.json'), 'utf8'));
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

beforeAll(async () => {
  await ensureDashboard();
  stage = await mkdtemp(join(tmpdir(), 'folio-packaged-'));
  packaged = await packagedFiles();
  for (const file of packaged) {
    await mkdir(dirname(join(stage, file)), { recursive: true });
    await copyFile(join(root, file), join(stage, file));
  }
  await symlink(join(root, 'node_modules'), join(stage, 'node_modules'), 'dir');
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

  it('holds every file a server module locates beside its own source', async () => {
    const located: string[] = [];
    const sources = packaged.filter((f) => f.startsWith('server/') && /\.(ts|mjs)$/.test(f));
    for (const file of sources)
      for (const [, target] of (await readFile(join(root, file), 'utf8')).matchAll(
        /new URL\('([^']+)', import\.meta\.url\)/g,
      ))
        located.push(relative(root, join(root, dirname(file), target)));
    // the whisper worker ships as an extra resource, outside the app, and is handed to the server by path
    const inApp = located.filter((path) => !path.startsWith('build/whisper/'));
    expect(inApp).toEqual(expect.arrayContaining(['server/engines/render/render-worker.mjs']));
    for (const path of inApp)
      await expect(
        lstat(join(stage, path)).then(
          () => true,
          () => false,
        ),
        path,
      ).resolves.toBe(true);
  });
});
