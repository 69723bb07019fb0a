// Clean-up that nobody asks for: expired grants, sign-in links and sessions, abandoned chunked uploads, bytes no
// record owns. Runs once at start-up and then on a timer; what it removed is logged with the counts.
import type { Logger } from '../log.js';
import type { Lifecycle } from '../services.js';

/** One clean-up; answers how many of each thing it removed, e.g. `{ 'expired upload grants': 2 }`. */
export type Sweep = (startup: boolean) => Promise<Record<string, number>>;

export type SweeperOptions = {
  sweeps: Sweep[];
  everyMs: number;
  log: Logger;
  lifecycle: Lifecycle;
};

export async function startSweeper({ sweeps, everyMs, log, lifecycle }: SweeperOptions): Promise<void> {
  let running: Promise<void> | undefined;
  const runAll = async (startup: boolean) => {
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
  };
  await runAll(true);
  const timer = setInterval(() => {
    running ??= runAll(false).finally(() => {
      running = undefined;
    });
  }, everyMs);
  timer.unref();
  lifecycle.onClose(async () => {
    clearInterval(timer);
    await running;
  });
}
