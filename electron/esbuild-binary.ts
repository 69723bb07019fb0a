// esbuild runs as a native binary (Folio bundles chart page scripts and MCP views with it, and tsx loads the
// render processes' modules through it). In the packaged app its platform package is unpacked from the asar
// (build/electron-builder.json asarUnpack), since a binary inside an archive cannot be spawned; esbuild is told
// the unpacked path through ESBUILD_BINARY_PATH, which the render processes inherit.
import { sep } from 'node:path';

/** esbuild's platform package and the binary's path in it, as esbuild's own install finds them. */
export function esbuildBinaryId(platform: NodeJS.Platform, arch: string): string {
  return platform === 'win32'
    ? `@esbuild/win32-${arch}/esbuild.exe`
    : `@esbuild/${platform}-${arch}/bin/esbuild`;
}

/** The unpacked copy of the binary that `resolve` finds inside the app's asar; undefined outside an asar. */
export function unpackedEsbuildBinary(
  resolve: (id: string) => string,
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): string | undefined {
  const inArchive = resolve(esbuildBinaryId(platform, arch));
  const archive = `${sep}app.asar${sep}`;
  return inArchive.includes(archive)
    ? inArchive.replace(archive, `${sep}app.asar.unpacked${sep}`)
    : undefined;
}
