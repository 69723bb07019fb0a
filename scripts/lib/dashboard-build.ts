/**
 * Builds the dashboard (renderer/ → dist/renderer) with Vite when it is missing or stale, then writes a
 * brotli and a gzip copy of every compressible file, which the server sends to clients that accept them.
 * Staleness: a fingerprint of the renderer sources, the Vite config and the lockfile, kept in build-info.json.
 */

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type DashboardBuild = { status: 'built' | 'up-to-date'; ms: number; outDir: string };

export const dashboardOutDir = (root: string) => join(root, 'dist/renderer');
const INFO = 'build-info.json';
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map)$/;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

/** A hash over every input that changes the built output. */
export function dashboardFingerprint(root: string): string {
  const hash = createHash('sha256');
  const inputs = [...files(join(root, 'renderer'))].sort();
  for (const extra of ['vite.config.ts', 'package-lock.json'])
    if (existsSync(join(root, extra))) inputs.push(join(root, extra));
  for (const path of inputs) {
    hash.update(relative(root, path));
    hash.update(readFileSync(path));
  }
  return hash.digest('hex');
}

export function dashboardIsFresh(root: string, fingerprint = dashboardFingerprint(root)): boolean {
  const info = join(dashboardOutDir(root), INFO);
  if (!existsSync(info) || !existsSync(join(dashboardOutDir(root), 'index.html'))) return false;
  try {
    return JSON.parse(readFileSync(info, 'utf8')).fingerprint === fingerprint;
  } catch {
    return false;
  }
}

/** Writes `<file>.br` and `<file>.gz` beside each compressible file when they are smaller. */
export function precompress(dir: string): void {
  for (const path of files(dir)) {
    if (!COMPRESSIBLE.test(path) || path.endsWith(INFO)) continue;
    const bytes = readFileSync(path);
    if (bytes.length < 512) continue;
    const br = brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    });
    const gz = gzipSync(bytes, { level: 9 });
    if (br.length < bytes.length) writeFileSync(`${path}.br`, br);
    if (gz.length < bytes.length) writeFileSync(`${path}.gz`, gz);
  }
}

/** `stderr`: Vite's output goes to stderr, leaving stdout to the caller (the headless start-up lines). */
export async function buildDashboard(
  root: string,
  { force = false, quiet = false, stderr = false } = {},
): Promise<DashboardBuild> {
  const started = Date.now();
  const outDir = dashboardOutDir(root);
  const fingerprint = dashboardFingerprint(root);
  if (!force && dashboardIsFresh(root, fingerprint))
    return { status: 'up-to-date', ms: Date.now() - started, outDir };
  // In its own process with NODE_ENV=production: Vite keeps an inherited NODE_ENV (vitest sets "test", and
  // vitest has Vite loaded already), and React would then ship its development build.
  await viteBuild(root, quiet, stderr);
  precompress(outDir);
  writeFileSync(
    join(outDir, INFO),
    JSON.stringify({ fingerprint, builtAt: new Date().toISOString() }, null, 2),
  );
  return { status: 'built', ms: Date.now() - started, outDir };
}

/** Size of everything under dist/renderer, for the log line. */
export const dashboardBytes = (dir: string) => [...files(dir)].reduce((sum, f) => sum + statSync(f).size, 0);

function viteBuild(root: string, quiet: boolean, stderr: boolean): Promise<void> {
  const require = createRequire(join(root, 'package.json'));
  const vite = join(dirname(require.resolve('vite/package.json')), 'bin/vite.js');
  const args = [
    vite,
    'build',
    '--config',
    join(root, 'vite.config.ts'),
    '--logLevel',
    quiet ? 'error' : 'warn',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      stdio: stderr ? ['ignore', 2, 2] : 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`vite build exited with ${code}`)),
    );
  });
}
