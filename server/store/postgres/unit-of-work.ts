// A unit of work on PostgreSQL: one transaction, begun at the unit's first statement (so the blobs a unit puts
// first hold no connection meanwhile). Each write runs under a savepoint, one at a time: a write that conflicts or
// matches nothing undoes only itself, and the unit goes on as it would outside one. Its first write in a workspace
// takes the workspace's change counter (feed.ts), so the unit holds every other write of the workspace until it ends.
import { type ControlledTransaction, sql, type Transaction } from 'kysely';
import type { Collection, CollectionSpec, Row } from '../types.js';
import type { RowUnit } from '../unit-of-work.js';
import type { TransactionRunner } from './collection.js';
import type { Database, Db } from './database.js';

export function createPostgresUnit(
  pool: Db,
  open: <T extends Row>(spec: CollectionSpec<T>, unit: TransactionRunner) => Collection<T>,
): RowUnit & Pick<TransactionRunner, 'connection'> {
  let begun: Promise<ControlledTransaction<Database>> | undefined;
  let writes: Promise<unknown> = Promise.resolve();
  const connection = () => {
    begun ??= pool.startTransaction().execute();
    return begun;
  };
  const runner: TransactionRunner = {
    connection,
    atomically<R>(work: (trx: Transaction<Database>) => Promise<R>): Promise<R> {
      const next = writes.then(async () => {
        const trx = await connection();
        await sql`SAVEPOINT folio_write`.execute(trx);
        try {
          const result = await work(trx);
          await sql`RELEASE SAVEPOINT folio_write`.execute(trx);
          return result;
        } catch (error) {
          await sql`ROLLBACK TO SAVEPOINT folio_write`.execute(trx);
          throw error;
        }
      });
      writes = next.catch(() => undefined);
      return next;
    },
  };
  return {
    connection,
    collection(spec) {
      if (spec.scope !== 'workspace') throw new Error(`${spec.name}: a unit of work writes one workspace`);
      return open(spec, runner);
    },
    async commit() {
      await writes;
      if (begun) await (await begun).commit().execute();
    },
    async rollback() {
      await writes;
      if (begun) await (await begun).rollback().execute();
    },
  };
}
