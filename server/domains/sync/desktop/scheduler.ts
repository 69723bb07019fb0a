// Background sync: each opted-in workspace runs every `intervalMinutes`; a run that fails as a whole (the hosted
// Folio unreachable, refusing, or failing) is tried again after 30 s, 1, 2, 4 … up to 30 minutes, each wait drawn
// between half and all of that (retry-delay.ts), and the first run that gets through resets that. Item errors are not
// backed off: the run itself worked.
import type { Logger } from '../../../log.js';
import type { Store } from '../../../store/types.js';
import { type RunSummary, syncSettings } from '../collections.js';
import { withJitter } from './retry-delay.js';

export const BACKOFF_START_MS = 30_000;
export const BACKOFF_MAX_MS = 30 * 60_000;

type State = { nextRunAt: number; failures: number; offline: boolean; busy: boolean };

export function createScheduler(deps: {
  store: Store;
  run: (workspaceId: string) => Promise<RunSummary>;
  log: Logger;
  now?: () => number;
  /** Draws the jitter of each backoff (Math.random). */
  random?: () => number;
  tickMs?: number;
}) {
  const { store, log } = deps;
  const now = deps.now ?? Date.now;
  const states = new Map<string, State>();
  let timer: NodeJS.Timeout | undefined;

  const stateOf = (workspaceId: string): State => {
    let state = states.get(workspaceId);
    if (!state) {
      state = { nextRunAt: now(), failures: 0, offline: false, busy: false };
      states.set(workspaceId, state);
    }
    return state;
  };

  /** Records how a run went and when the next one is due. */
  function observe(workspaceId: string, done: Promise<RunSummary>): Promise<void> {
    const state = stateOf(workspaceId);
    state.busy = true;
    const recorded = done.then(
      async (summary) => {
        state.busy = false;
        if (summary.error) {
          state.failures++;
          state.offline = Boolean(summary.offline);
          const wait = withJitter(backoffMs(state.failures), deps.random);
          state.nextRunAt = now() + wait;
          log.warn(
            `Sync of ${workspaceId} failed (${summary.error}); trying again in ${Math.round(wait / 1000)} s`,
          );
        } else {
          state.failures = 0;
          state.offline = false;
          state.nextRunAt = now() + (await intervalMs(workspaceId));
        }
      },
      async () => {
        state.busy = false;
        state.nextRunAt = now() + (await intervalMs(workspaceId));
      },
    );
    // the settings read can fail (storage): a "Sync now" does not wait on this, so nothing else would hear it
    return recorded.catch((error) => {
      log.warn(`Sync schedule: ${(error as Error).message}`);
    });
  }

  async function intervalMs(workspaceId: string): Promise<number> {
    const settings = await store.collection(syncSettings, workspaceId).get('sync');
    return (settings?.intervalMinutes ?? 5) * 60_000;
  }

  /** Runs every opted-in workspace that is due. */
  async function tick(): Promise<void> {
    for (const workspaceId of await store.workspacesWith(syncSettings)) {
      const settings = await store.collection(syncSettings, workspaceId).get('sync');
      if (!settings?.enabled || !settings.remoteUrl) continue;
      const state = stateOf(workspaceId);
      if (state.busy || now() < state.nextRunAt) continue;
      await observe(workspaceId, deps.run(workspaceId));
    }
  }

  return {
    tick,
    observe,
    stateOf: (workspaceId: string) => ({ ...stateOf(workspaceId) }),
    /** Settings changed: the next tick may run it at once. */
    reschedule(workspaceId: string) {
      const state = stateOf(workspaceId);
      state.nextRunAt = now();
      state.failures = 0;
    },
    /** A local change the owner made on purpose (a resolved conflict): run soon. */
    soon(workspaceId: string) {
      stateOf(workspaceId).nextRunAt = now();
    },
    start() {
      let ticking = false;
      timer = setInterval(() => {
        if (ticking) return;
        ticking = true;
        tick()
          .catch((error) => log.warn(`Sync schedule: ${(error as Error).message}`))
          .finally(() => {
            ticking = false;
          });
      }, deps.tickMs ?? 15_000);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
    },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;

/** The longest wait after `failures` failed runs in a row; the wait itself is drawn from its upper half. */
export const backoffMs = (failures: number) =>
  Math.min(BACKOFF_MAX_MS, BACKOFF_START_MS * 2 ** (failures - 1));
