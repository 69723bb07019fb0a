/**
 * Bundles the Electron main process (with the server it runs in-process) and the preload with esbuild.
 * Server modules find files next to themselves through `import.meta.url` (package.json, the built dashboard,
 * the render processes' entry); in one bundle every module would share the bundle's URL, so each server module's
 * `import.meta.url` is rewritten to the URL of its source file, relative to the bundle, keeping the
 * repository's layout (the packaged app holds server/ inside its asar). The shell's own modules keep the
 * bundle's URL: what they locate (the preload) is bundled beside main.js. A bundle runs what `npm run build:server`
 * made (dist/server/: the render processes' entry, browser scripts), never TypeScript.
 */
import { readFile } from 'node:fs/promises';
import { dirname, relative } from 'node:path';
import { build, type Plugin } from 'esbuild';

function sourceUrls(outDir: string): Plugin {
  return {
    name: 'source-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /[\\/]server[\\/].*\.ts$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        const rel = relative(outDir, args.path).split('\\').join('/');
        const url = `new URL(${JSON.stringify(rel)}, import.meta.url).href`;
        return { contents: source.replaceAll('import.meta.url', url), loader: 'ts' };
      });
    },
  };
}

const common = {
  bundle: true,
  platform: 'node' as const,
  packages: 'external' as const,
  logLevel: 'warning' as const,
  // a bundle runs from npm run build:server's output: no TypeScript at run time (server/engines/prebuilt.ts)
  define: { FOLIO_PREBUILT: 'true' },
};

/** One ESM bundle of `entry` whose modules keep their own `import.meta.url`. */
export async function bundleModule(entry: string, outfile: string): Promise<void> {
  await build({
    ...common,
    entryPoints: [entry],
    format: 'esm',
    outfile,
    plugins: [sourceUrls(dirname(outfile))],
  });
}

/**
 * ESM bundles of `entries` (output name → source) in `outdir`, sharing chunks. What is imported only by an
 * `await import()` stays in a chunk loaded then, with the packages it imports: a start does not load the PostgreSQL
 * and S3 clients a desktop never opens, or the log file's roller a hosted node never writes.
 */
export async function bundleSplit(entries: Record<string, string>, outdir: string): Promise<void> {
  await build({
    ...common,
    entryPoints: entries,
    format: 'esm',
    splitting: true,
    outdir,
    chunkNames: '[name]-[hash]', // beside the entries: each module's URL is written relative to outdir
    plugins: [sourceUrls(outdir)],
  });
}

export async function bundleShell(root: string): Promise<void> {
  await bundleSplit({ main: `${root}electron/boot.ts` }, `${root}dist/electron`);
  await build({
    ...common,
    entryPoints: [`${root}electron/preload.ts`],
    format: 'cjs',
    outfile: `${root}dist/electron/preload.cjs`,
  });
}
