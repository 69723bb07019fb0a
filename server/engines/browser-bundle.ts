/**
 * One self-contained, minified browser script from a TypeScript entry, bundled in memory with esbuild (chart
 * pages' runtime, MCP views). esbuild is loaded on first use, not at start-up: a desktop that never serves a chart
 * page does not pay for it, and the packaged shell has pointed esbuild at its unpacked binary by then
 * (electron/esbuild-binary.ts).
 */
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
