// The sweeps the sweeper runs, each over one service, and what each can still find left behind.
import type { Services } from '../services.js';
import type { Sweep } from './sweeper.js';

/** What the sweeper runs: expired credentials, abandoned uploads, and bytes no record owns (after a crash). */
export function sweepsOf({
  identity,
  assets,
  uploads,
  chunkedUploads,
  realtime,
  sync,
  publishing,
  config,
}: Services): Sweep[] {
  // An upload under way may own bytes that have no record yet. At start-up none is, unless other nodes share
  // the store: there every sweep keeps the grace.
  const idleAtStart = (startup: boolean) => startup && !config.database;
  const graceMs = (startup: boolean) => (idleAtStart(startup) ? 0 : config.orphanGraceMs);
  return [
    // Nothing left behind: sessions and sign-in links that expired, which no write can remove at their expiry.
    () => identity.sweep(),
    // Nothing left behind: grants that expired unused (or were used), kept until then for a 410.
    async () => ({ 'expired upload grants': await uploads.grants.sweep() }),
    // Nothing left behind: realtime secrets that expired or were used.
    async () => ({ 'expired realtime secrets': await realtime.grants.sweep() }),
    // Parts of uploads nobody completed, and part directories a crash left before their record: parts are files or
    // blobs, outside the records' transaction. At start on one node, a complete a crash cut off is opened again.
    async (startup) => {
      const { expired, reopened, orphans } = await chunkedUploads.sweep({
        startup: idleAtStart(startup),
        graceMs: graceMs(startup),
      });
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
