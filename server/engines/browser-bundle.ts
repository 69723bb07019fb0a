/**
 * The browser scripts Folio serves (chart pages' runtime, MCP views): self-contained and minified. Built, they are
 * files made once by `npm run build:server` with their SHA-256 (engines/prebuilt.ts); from the sources they are
 * bundled in memory with esbuild on first use (a development dependency, loaded only then).
 */
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { type BrowserScript, prebuilt, prebuiltBrowserScript } from './prebuilt.js';

export type { BrowserScript } from './prebuilt.js';

/** The script `name` (as scripts/lib/build-server.ts lists it), whose TypeScript entry is `entry`. */
export async function browserScript(name: string, entry: URL): Promise<BrowserScript> {
  if (prebuilt) return prebuiltBrowserScript(name);
  const code = Buffer.from(await bundleForBrowser(fileURLToPath(entry)));
  return { code, sha256: createHash('sha256').update(code).digest('hex') };
}

/** One self-contained, minified browser script from a TypeScript entry, bundled in memory with esbuild. */
export async function bundleForBrowser(entry: string): Promise<Uint8Array> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0].contents;
}
