/**
 * The /c/:slug page's script (vega, vega-interpreter, vega-tooltip): built once (engines/browser-bundle.ts) and
 * served from this server at /c/-/runtime.js?v=<hash> (immutable for that hash), so chart pages stay cacheable and
 * the page CSP allows exactly that URL.
 */
import { browserScript } from '../../../engines/browser-bundle.js';

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
  const { code, sha256 } = await browserScript(
    'chart-runtime',
    new URL('./client/chart-runtime.ts', import.meta.url),
  );
  return { code, hash: sha256.slice(0, 16) };
}

export const RUNTIME_PATH = '/c/-/runtime.js';
