/**
 * The built dashboard (dist/renderer, made by scripts/build-dashboard.ts) held in memory: every file with
 * its precompressed .br/.gz twins, so a request costs a map lookup. Files are content-hashed under /_app/,
 * so they are cached immutably. Only names found in the build are served: no path from a request ever
 * reaches the file system.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export type DashboardFile = { type: string; identity: Buffer; br?: Buffer; gzip?: Buffer };
export type Encoding = 'br' | 'gzip' | 'identity';

/** Where the dashboard comes from: the build on disk, or (npm run dev) Vite's transformed page. */
export type DashboardSource = {
  /** The HTML page for a dashboard URL; undefined when the dashboard is not built. */
  page(url: string): Promise<DashboardFile | undefined>;
  /** A built asset by its URL path (e.g. /_app/index-abc.js). */
  asset(path: string): DashboardFile | undefined;
  /** Vite's dev page carries inline scripts (hot reload), so it goes without the dashboard's CSP. */
  devServer?: boolean;
};

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.png': 'image/png',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

export const defaultDashboardDir = fileURLToPath(new URL('../../../dist/renderer/', import.meta.url));

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}

function load(dir: string): Map<string, DashboardFile> {
  const files = new Map<string, DashboardFile>();
  if (!existsSync(join(dir, 'index.html'))) return files;
  for (const path of walk(dir)) {
    if (path.endsWith('.br') || path.endsWith('.gz') || path.endsWith('build-info.json')) continue;
    const url = `/${relative(dir, path).split(sep).join('/')}`;
    const twin = (suffix: string) => (existsSync(path + suffix) ? readFileSync(path + suffix) : undefined);
    files.set(url, {
      type: TYPES[extname(path)] ?? 'application/octet-stream',
      identity: readFileSync(path),
      br: twin('.br'),
      gzip: twin('.gz'),
    });
  }
  return files;
}

/** The build in `dir`, reloaded when index.html changes (a rebuild while the server runs). */
export function builtDashboard(dir: string = defaultDashboardDir): DashboardSource {
  let files = new Map<string, DashboardFile>();
  let loadedFor = -1;
  const current = () => {
    const index = join(dir, 'index.html');
    const mtime = existsSync(index) ? statSync(index).mtimeMs : 0;
    if (mtime !== loadedFor) {
      files = load(dir);
      loadedFor = mtime;
    }
    return files;
  };
  return {
    page: async () => current().get('/index.html'),
    asset: (path) => (path.startsWith('/_app/') || path === '/favicon.svg' ? current().get(path) : undefined),
  };
}

/** The smallest variant the client accepts: brotli before gzip whatever order the client lists them in. */
export function pickEncoding(file: DashboardFile, accepts: (encoding: string) => string | false) {
  if (file.br && accepts('br') === 'br') return { encoding: 'br' as Encoding, body: file.br };
  if (file.gzip && accepts('gzip') === 'gzip') return { encoding: 'gzip' as Encoding, body: file.gzip };
  return { encoding: 'identity' as Encoding, body: file.identity };
}
