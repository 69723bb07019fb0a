// A unit of work on PostgreSQL: one transaction, begun at the unit's first statement (so the blobs a unit puts
// first hold no connection meanwhile). Each write runs under a savepoint: a write that conflicts or matches nothing
// undoes only itself, and the unit goes on as it would outside one. Its first write in a workspace takes the
// workspace's change counter (feed.ts), so the unit holds every other write of the workspace until it ends.
// Statements run one at a time, reads too: a read sent while a failed write's savepoint is still open would fail
// with the aborted transaction (25P02), and with it the unit, for a conflict that was only that write's.
import { type ControlledTransaction, sql } from 'kysely';
import type { Collection, CollectionSpec, Row } from '../types.js';
import type { RowUnit } from '../unit-of-work.js';
import type { TransactionRunner } from './collection.js';
import type { Database, Db } from './database.js';

export function createPostgresUnit(
  pool: Db,
  open: <T extends Row>(spec: CollectionSpec<T>, unit: TransactionRunner) => Collection<T>,
): RowUnit & Pick<TransactionRunner, 'read'> {
  let begun: Promise<ControlledTransaction<Database>> | undefined;
  let statements: Promise<unknown> = Promise.resolve();
  const connection = () => {
    begun ??= pool.startTransaction().execute();
    return begun;
  };
  /** Runs `work` on the transaction once the statements before it are done. */
  function inTurn<R>(work: (trx: ControlledTransaction<Database>) => Promise<R>): Promise<R> {
    const next = statements.then(async () => work(await connection()));
    statements = next.catch(() => undefined);
    return next;
  }
  const runner: TransactionRunner = {
    read: inTurn,
    atomically: (work) =>
      inTurn(async (trx) => {
        await sql`SAVEPOINT folio_write`.execute(trx);
        try {
          const result = await work(trx);
          await sql`RELEASE SAVEPOINT folio_write`.execute(trx);
          return result;
        } catch (error) {
          await sql`ROLLBACK TO SAVEPOINT folio_write`.execute(trx);
          throw error;
        }
      }),
  };
  return {
    read: runner.read,
    collection(spec) {
      if (spec.scope !== 'workspace') throw new Error(`${spec.name}: a unit of work writes one workspace`);
      return open(spec, runner);
    },
    async commit() {
      await statements;
      if (begun) await (await begun).commit().execute();
    },
    async rollback() {
      await statements;
      if (begun) await (await begun).rollback().execute();
    },
  };
}
