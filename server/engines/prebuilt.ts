/**
 * Whether this process runs from `npm run build:server`'s output (the packaged app, the hosted image) or from the
 * TypeScript sources (a checkout, tests). Built, the render processes' entry, the duration reader's thread and the
 * browser scripts (chart pages' runtime, MCP views) are files in dist/server/, made once with their CSP hashes
 * (scripts/lib/build-server.ts): nothing is compiled or bundled while Folio runs, and neither tsx nor esbuild ships.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

// set by the bundler (scripts/lib/bundle-shell.ts `define`); a source module never sees it defined
declare const FOLIO_PREBUILT: boolean | undefined;

export const prebuilt: boolean = typeof FOLIO_PREBUILT !== 'undefined' && FOLIO_PREBUILT === true;

const PREBUILT_DIR = new URL('../../dist/server/', import.meta.url);

/** A file of the build's output, dist/server/<name>. */
export const prebuiltFile = (name: string): URL => new URL(name, PREBUILT_DIR);

/** A browser script the build made: its code and the SHA-256 recorded with it (base64, as a CSP names it). */
export type BrowserScript = { code: Buffer; sha256: string };

export async function prebuiltBrowserScript(name: string): Promise<BrowserScript> {
  const manifest = JSON.parse(await readFile(prebuiltFile('browser/manifest.json'), 'utf8')) as Record<
    string,
    { file: string; sha256: string }
  >;
  const entry = manifest[name];
  if (!entry) throw new Error(`the build holds no browser script "${name}" (run npm run build:server)`);
  return { code: await readFile(fileURLToPath(prebuiltFile(`browser/${entry.file}`))), sha256: entry.sha256 };
}
