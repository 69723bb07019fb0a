import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';

type WriteOptions = { flags?: string; start?: number; highWaterMark?: number };

/**
 * Runs `pipe` (a pipeline ending in the given file stream) and, when it fails, settles only once the file is closed.
 * pipeline() rejects as soon as any stream fails, often before the file's open has run: a caller that then removes
 * the file could remove nothing and see the open create it a moment later (a leaked temp file), and one that hands
 * a range of the file to the next writer would race the failed writer's last write.
 */
export async function pipeIntoFile(
  path: string,
  pipe: (out: WriteStream) => Promise<unknown>,
  options: WriteOptions = {},
): Promise<void> {
  const out = createWriteStream(path, options);
  try {
    await pipe(out);
  } catch (error) {
    out.destroy();
    if (!out.closed) await once(out, 'close').catch(() => undefined);
    throw error;
  }
}
