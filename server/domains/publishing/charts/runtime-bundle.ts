/**
 * The /c/:slug page's script, bundled once per process with esbuild (vega, vega-interpreter, vega-tooltip)
 * and served from this server at /c/-/runtime.js?v=<hash> (immutable for that hash), so chart pages stay
 * cacheable and the page CSP allows exactly that URL.
 */
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export type RuntimeBundle = { code: Buffer; hash: string };

let bundling: Promise<RuntimeBundle> | undefined;

export function chartRuntime(): Promise<RuntimeBundle> {
  bundling ??= bundle().catch((error) => {
    bundling = undefined;
    throw error;
  });
  return bundling;
}

async function bundle(): Promise<RuntimeBundle> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./client/chart-runtime.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  const code = Buffer.from(result.outputFiles[0].contents);
  return { code, hash: createHash('sha256').update(code).digest('hex').slice(0, 16) };
}

export const RUNTIME_PATH = '/c/-/runtime.js';
