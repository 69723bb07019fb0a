/**
 * `npm run build:server`: the server as the packaged app and the hosted image run it, built once into dist/server/.
 * - main.js, cli.js, sync-cli.js: the entries (`node dist/server/main.js` serves), each module keeping its source's
 *   URL so what it finds beside itself resolves as in the repository (bundle-shell.ts), and the chunks: what they
 *   share, and what they load only when asked (the PostgreSQL and S3 backends), as `<name>-<hash>.js` beside them;
 * - render-worker.mjs: the render processes' entry with every render task compiled in (server/render-entry.ts);
 * - duration-worker.mjs: the thread that reads a recording's duration (plain JavaScript, copied);
 * - browser/: the chart pages' runtime and the MCP views' script, minified, with manifest.json naming each file and
 *   its SHA-256, which the pages' CSP uses.
 * Nothing is compiled or bundled at run time from this output (server/engines/prebuilt.ts), so tsx and esbuild are
 * development dependencies only.
 */
import { createHash } from 'node:crypto';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bundleForBrowser } from '../../server/engines/browser-bundle.js';
import { bundleModule, bundleSplit } from './bundle-shell.js';

/** Node entries: name in dist/server/ → source. */
const ENTRIES = { main: 'server/main.ts', cli: 'server/cli/main.ts', 'sync-cli': 'server/sync-cli.ts' };

/** Browser scripts by the name the server asks for (engines/browser-bundle.ts `browserScript`). */
export const BROWSER_SCRIPTS = {
  'chart-runtime': 'server/domains/publishing/charts/client/chart-runtime.ts',
  'mcp-view': 'server/surfaces/mcp/apps/view-app.ts',
} as const;

export async function buildServer(root: string): Promise<{ ms: number }> {
  const started = Date.now();
  const out = join(root, 'dist/server');
  await rm(out, { recursive: true, force: true });
  await mkdir(join(out, 'browser'), { recursive: true });
  await Promise.all([
    bundleSplit(
      Object.fromEntries(Object.entries(ENTRIES).map(([name, source]) => [name, join(root, source)])),
      out,
    ),
    bundleModule(join(root, 'server/render-entry.ts'), join(out, 'render-worker.mjs')),
  ]);
  await copyFile(
    join(root, 'server/engines/media-facts/duration-worker.mjs'),
    join(out, 'duration-worker.mjs'),
  );
  const manifest: Record<string, { file: string; sha256: string }> = {};
  for (const [name, entry] of Object.entries(BROWSER_SCRIPTS)) {
    const code = await bundleForBrowser(join(root, entry));
    const file = `${name}.js`;
    await writeFile(join(out, 'browser', file), code);
    manifest[name] = { file, sha256: createHash('sha256').update(code).digest('hex') };
  }
  await writeFile(join(out, 'browser/manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return { ms: Date.now() - started };
}
