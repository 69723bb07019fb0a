/**
 * A recording's duration from its container's header (music-metadata), read on a worker thread under a deadline.
 * The file is untrusted and the read's cost has no bound of its own: a 4 MB Matroska file declaring 70,000 tracks
 * costs music-metadata minutes of CPU. Past the deadline the thread is terminated and the duration is unknown
 * (docs/security.md "What one upload may cost").
 */
import { Tinypool } from 'tinypool';
import { prebuilt, prebuiltFile } from '../prebuilt.js';

/** How long one read may take: headers read in milliseconds, and a VBR MP3 scan of a large file in a few seconds. */
export const DEFAULT_DURATION_DEADLINE_MS = 3_000;

const WORKER = (
  prebuilt ? prebuiltFile('duration-worker.mjs') : new URL('./duration-worker.mjs', import.meta.url)
).href;

let pool: Tinypool | undefined;

function threads(): Tinypool {
  pool ??= new Tinypool({
    runtime: 'worker_threads',
    filename: WORKER,
    minThreads: 0,
    maxThreads: 1, // one read at a time: uploads wait their turn rather than take more of the CPU
    maxQueue: 64,
    idleTimeout: 30_000,
    // Only this thread's own heap bound, not the server's flags (tsx's loader, inspector).
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  return pool;
}

export type DurationSource = { path: string } | { bytes: Uint8Array; contentType: string };

/**
 * Seconds, or undefined when the header does not say, the file is unreadable, or the read did not finish within
 * `deadlineMs` (counted from the call, so waiting for the thread counts too). Never throws.
 */
export async function readDuration(
  source: DurationSource,
  deadlineMs = DEFAULT_DURATION_DEADLINE_MS,
): Promise<number | undefined> {
  try {
    const seconds = await threads().run(source, { signal: AbortSignal.timeout(deadlineMs) });
    return typeof seconds === 'number' ? seconds : undefined;
  } catch {
    return undefined; // unreadable, a queue past its bound, or the deadline: the asset has no duration
  }
}

/** Ends the reading thread (a test's or a server's close); a later read starts a new one. */
export async function closeDurationReader(): Promise<void> {
  const ending = pool;
  pool = undefined;
  await ending?.destroy();
}
