// Clean-up that nobody asks for: expired grants, sign-in links and sessions, abandoned chunked uploads, bytes no
// record owns. Runs once as the server starts serving, in the background, and then on a timer; what it removed is
// logged with the counts.

import type { Lifecycle } from '../deps.js';
import type { Logger } from '../log.js';

/** One clean-up; answers how many of each thing it removed, e.g. `{ 'expired upload grants': 2 }`. */
export type Sweep = (startup: boolean) => Promise<Record<string, number>>;

export type SweeperOptions = {
  sweeps: Sweep[];
  everyMs: number;
  log: Logger;
  lifecycle: Lifecycle;
  /** The first run waits for it (the store's indexes; a test's hold). */
  after?: Promise<void>;
};

/** Runs `sweeps` one after another, logging what they removed; a failing sweep is logged and the rest still run. */
export async function runSweeps(sweeps: Sweep[], startup: boolean, log: Logger) {
  const removed: string[] = [];
  for (const sweep of sweeps) {
    try {
      for (const [what, count] of Object.entries(await sweep(startup)))
        if (count > 0) removed.push(`${count} ${what}`);
    } catch (error) {
      log.error(`Sweep failed: ${(error as Error).message}`, error);
    }
  }
  if (removed.length) log.info(`Swept ${removed.join(', ')}`);
}

/** Starts the first run now, without waiting for it, and the timer; answers the first run's end. */
export function startSweeper({ sweeps, everyMs, log, lifecycle, after }: SweeperOptions): Promise<void> {
  let running: Promise<void> | undefined = Promise.resolve(after)
    .then(() => (lifecycle.closing() ? undefined : runSweeps(sweeps, true, log)))
    .finally(() => {
      running = undefined;
    });
  const first = running;
  const timer = setInterval(() => {
    running ??= runSweeps(sweeps, false, log).finally(() => {
      running = undefined;
    });
  }, everyMs);
  timer.unref();
  lifecycle.onClose(async () => {
    clearInterval(timer);
    await running;
  });
  return first;
}
