// Reads a file of lines (a journal, a snapshot) a chunk at a time, handing each complete line on before the next
// chunk is read: loading a large collection never holds the event loop for the whole file, only for one chunk.
import { createReadStream } from 'node:fs';

/** Small enough that one chunk's lines parse well within an event-loop turn. */
const CHUNK_BYTES = 64 << 10;

export type LineFile = {
  /** What follows the last newline (a torn last line, or '' when the file ends with one). */
  tail: string;
  /** The file's size in bytes. */
  bytes: number;
};

/** Calls `onLine` for every complete line, in order (numbered from 1); undefined when the file does not exist. */
export async function readLines(
  path: string,
  onLine: (line: string, number: number) => void,
): Promise<LineFile | undefined> {
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: CHUNK_BYTES });
  let carry = '';
  let number = 0;
  let bytes = 0;
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      bytes += Buffer.byteLength(chunk);
      const lines = (carry + chunk).split('\n');
      carry = lines.pop() ?? '';
      for (const line of lines) onLine(line, ++number);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return { tail: carry, bytes };
}
