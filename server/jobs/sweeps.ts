// The sweeps the sweeper runs, each over one service, and what each can still find left behind.
import type { Deps } from '../deps.js';
import type { Sweep } from './sweeper.js';

/**
 * What must be repaired before the server serves: a PUT or complete that a crash cut off, which only a sweep with
 * no request under way may undo (chunked-uploads/sweep.ts). Its cost grows with the uploads left open, not with
 * the library. Not on a shared store, where other nodes serve meanwhile.
 */
export function repairsBeforeServing({ chunkedUploads, config }: Deps): Sweep[] {
  if (config.database) return [];
  return [
    async () => {
      const { expired, reopened, orphans } = await chunkedUploads.sweep({ startup: true, graceMs: 0 });
      return {
        'expired chunked uploads': expired,
        'chunked uploads reopened after a complete cut off': reopened,
        'orphaned chunked upload directories': orphans,
      };
    },
  ];
}

/**
 * What the sweeper runs once the server serves: expired credentials, abandoned uploads, and bytes no record owns
 * (after a crash). `startedAt`: when this process began, before it served anything; at start on one node, what is
 * older than that cannot belong to a request under way.
 */
export function sweepsOf(
  { identity, assets, uploads, chunkedUploads, realtime, sync, publishing, config }: Deps,
  startedAt: number,
): Sweep[] {
  // An upload under way may own bytes that have no record yet. At start-up only those of this process can be,
  // unless other nodes share the store: there every sweep keeps the grace.
  const idleAtStart = (startup: boolean) => startup && !config.database;
  const graceMs = (startup: boolean) =>
    idleAtStart(startup) ? Date.now() - startedAt : config.orphanGraceMs;
  return [
    // Nothing left behind: sessions and sign-in links that expired, which no write can remove at their expiry.
    () => identity.sweep(),
    // Nothing left behind: grants that expired unused (or were used), kept until then for a 410.
    async () => ({ 'expired upload grants': await uploads.grants.sweep() }),
    // Nothing left behind: realtime secrets that expired or were used.
    async () => ({ 'expired realtime secrets': await realtime.grants.sweep() }),
    // Parts of uploads nobody completed, and part directories a crash left before their record: parts are files or
    // blobs, outside the records' transaction. (A complete a crash cut off was opened again before serving.)
    async (startup) => {
      const { expired, reopened, orphans } = await chunkedUploads.sweep({ graceMs: graceMs(startup) });
      return {
        'expired chunked uploads': expired,
        'chunked uploads reopened after a complete cut off': reopened,
        'orphaned chunked upload directories': orphans,
      };
    },
    // Asset bytes put before a crash cut off their unit of work's commit: a blob store has no part in that transaction.
    async (startup) => ({ 'asset files without a record': await assets.sweepOrphans(graceMs(startup)) }),
    // Versions without their item that an older Folio's killed publish left (a publish is one unit of work now);
    // only at start, when no such publish is under way (sync hides those versions meanwhile).
    async (startup) => ({
      'versions of publishes never finished': startup
        ? await publishing.sweepUnfinished(graceMs(startup))
        : 0,
    }),
    // Staged sync blobs no record took (an abandoned push: the blobs come before their records) and old receipts.
    () => sync.hosted.sweep(),
  ];
}
