/**
 * The /c/:slug page's script, bundled once per process with esbuild (vega, vega-interpreter, vega-tooltip)
 * and served from this server at /c/-/runtime.js?v=<hash> (immutable for that hash), so chart pages stay
 * cacheable and the page CSP allows exactly that URL.
 */
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { bundleForBrowser } from '../../../engines/browser-bundle.js';

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
  const code = Buffer.from(
    await bundleForBrowser(fileURLToPath(new URL('./client/chart-runtime.ts', import.meta.url))),
  );
  return { code, hash: createHash('sha256').update(code).digest('hex').slice(0, 16) };
}

export const RUNTIME_PATH = '/c/-/runtime.js';
