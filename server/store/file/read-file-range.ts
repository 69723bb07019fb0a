import { open } from 'node:fs/promises';

/**
 * Up to `length` bytes of the file at `path` from `start`, read into memory by position (fewer where the file ends
 * first); undefined when there is no such file.
 */
export async function readFileRange(
  path: string,
  start: number,
  length: number,
): Promise<Buffer | undefined> {
  const handle = await open(path, 'r').catch((error) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!handle) return undefined;
  try {
    const bytes = Buffer.allocUnsafe(length);
    let filled = 0;
    while (filled < length) {
      const { bytesRead } = await handle.read(bytes, filled, length - filled, start + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return bytes.subarray(0, filled);
  } finally {
    await handle.close();
  }
}
