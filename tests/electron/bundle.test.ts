// The packaged main process is one esbuild bundle: server modules must still find package.json and the built
// dashboard beside their own source. Bundles the server host (everything main.ts runs but Electron) and runs it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerHost } from '../../electron/server-host.js';
import { bundleModule } from '../../scripts/lib/bundle-shell.js';
import { ensureDashboard } from '../e2e/ensure-dashboard.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
let out: string;
let userData: string;
let host: ServerHost;
let cookie: string;

beforeAll(async () => {
  await ensureDashboard();
  out = await mkdtemp(join(root, 'dist', 'bundle-test-'));
  userData = await mkdtemp(join(tmpdir(), 'folio-bundle-'));
  await bundleModule(join(root, 'electron/server-host.ts'), join(out, 'server-host.js'));
  const bundled = (await import(
    pathToFileURL(join(out, 'server-host.js')).href
  )) as typeof import('../../electron/server-host.js');
  const { writeFile } = await import('node:fs/promises');
  await writeFile(join(userData, 'settings.json'), JSON.stringify({ port: 4780, whisperThreads: 2 }));
  host = await bundled.startServerHost({ userData, appPath: root });
  const signIn = await fetch(host.signInUrl, { redirect: 'manual' });
  cookie = signIn.headers.getSetCookie()[0].split(';')[0];
}, 120_000);
afterAll(async () => {
  await host?.close();
  if (out) await rm(out, { recursive: true, force: true });
  if (userData) await rm(userData, { recursive: true, force: true });
});

describe('the bundled main process', () => {
  it('starts the server: version from package.json, the dashboard from dist/renderer', async () => {
    const reference = await (await fetch(`${host.url}/api/v1/openapi.json`)).json();
    expect(reference.info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(await (await fetch(`${host.url}/`, { headers: { cookie } })).text()).toContain('<div id="root">');
  });

  it('renders a chart in a render process started from the bundle', async () => {
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
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
  }, 120_000);
});
