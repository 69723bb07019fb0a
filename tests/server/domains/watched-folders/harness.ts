/** Watched-folder tests: a temp folder to watch, the server's view of it, and waiting on what the server shows. */
import type { TestServer } from '../../../helpers/server.js';
import type { Json } from '../../../helpers/transcription.js';

/** Polls `read` until `done` holds for its value; fails naming the last value after `timeoutMs`. */
export async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const transcriptsOf = async (srv: TestServer): Promise<Json[]> =>
  ((await (await srv.as(srv.owner)('/api/v1/transcripts?limit=100')).json()) as Json).data;

export const foldersOf = async (srv: TestServer): Promise<Json> =>
  (await srv.as(srv.owner)('/api/v1/watched-folders')).json() as Promise<Json>;

export const settledCount = (list: Json[]) =>
  list.filter((t) => t.status === 'completed' || t.status === 'failed').length;
