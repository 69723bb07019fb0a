/**
 * A TCP proxy on 127.0.0.1 that behaves like a network link between two machines: each direction carries the bytes
 * of all its connections at `mbit` megabits a second, one after another as a router's queue sends them, and delivers
 * them half a round trip after they leave. A sender that runs more than a few round trips ahead is paused until the
 * queue drains, as TCP's window would hold it. Benches only: what loopback hides (round trips, a slower upload) shows
 * through it.
 */
import { connect, createServer, type Socket } from 'node:net';

export type LinkOptions = { mbit: number; rttMs: number };

/** Forwards to `targetPort`; listens on `port` (a free one when not given). */
export async function startLink(targetPort: number, { mbit, rttMs }: LinkOptions, port = 0) {
  const bytesPerMs = (mbit * 1e6) / 8 / 1000;
  // Enough in flight to fill the link for a few round trips; beyond it the sender waits.
  const queueLimit = Math.max(1 << 20, bytesPerMs * rttMs * 4);
  const sockets = new Set<Socket>();

  /** When each direction of the link is next free to send, in performance.now() ms; shared by all connections. */
  const free = { up: 0, down: 0 };

  function carry(from: Socket, to: Socket, direction: keyof typeof free) {
    const queue: Array<{ chunk: Buffer; at: number }> = []; // in order of arrival, `at` in performance.now() ms
    let queued = 0;
    let scheduled = false;
    let ended = false;
    const deliver = () => {
      scheduled = false;
      const now = performance.now();
      while (queue.length && queue[0].at <= now) {
        const { chunk } = queue.shift()!;
        queued -= chunk.length;
        if (!to.destroyed) to.write(chunk);
      }
      if (queued <= queueLimit && from.isPaused()) from.resume();
      if (queue.length) schedule(queue[0].at - now);
      else if (ended) to.end();
    };
    const schedule = (ms: number) => {
      scheduled = true;
      setTimeout(deliver, Math.max(0, ms));
    };
    from.on('data', (chunk: Buffer) => {
      const now = performance.now();
      free[direction] = Math.max(now, free[direction]) + chunk.length / bytesPerMs;
      queue.push({ chunk, at: free[direction] + rttMs / 2 });
      queued += chunk.length;
      if (queued > queueLimit) from.pause();
      if (!scheduled) schedule(queue[0].at - now);
    });
    from.on('end', () => {
      ended = true;
      if (!scheduled) schedule(0);
    });
  }

  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.setNoDelay(true);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    carry(client, upstream, 'up');
    carry(upstream, client, 'down');
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const listening = (server.address() as { port: number }).port;
  return {
    port: listening,
    url: `http://127.0.0.1:${listening}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
