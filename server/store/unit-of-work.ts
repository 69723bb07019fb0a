// What both backends share of a unit of work (Store.unitOfWork): the blobs it put are deleted unless its rows
// commit. The rows are each backend's: a PostgreSQL transaction, or the file backend's unit journal.
import type { BlobStore, Collection, CollectionSpec, Row, UnitOfWork } from './types.js';

/** A backend's rows of one unit: collections whose writes wait for `commit`, or are undone by `rollback`. */
export type RowUnit = {
  collection<T extends Row>(spec: CollectionSpec<T>): Collection<T>;
  /** Commits every write, or throws having undone them all. */
  commit(): Promise<void>;
  /** Undoes every write not yet committed. */
  rollback(): Promise<void>;
};

/** Runs `work` over `rows` and `blobs`; commits when it resolves, undoes rows and deletes blobs when not. */
export async function runUnitOfWork<R>(
  blobs: BlobStore,
  rows: RowUnit,
  work: (tx: UnitOfWork) => Promise<R>,
): Promise<R> {
  const put: string[] = [];
  const tx: UnitOfWork = {
    collection: (spec) => rows.collection(spec),
    blobs: {
      put: (key, source) => {
        put.push(key);
        return blobs.put(key, source);
      },
      putFile: (key, path) => {
        put.push(key);
        return blobs.putFile(key, path);
      },
      disown: (key) => {
        const at = put.indexOf(key);
        if (at !== -1) put.splice(at, 1); // one put of it: another member's put of the same key is still the unit's
      },
    },
  };
  try {
    const result = await work(tx);
    await rows.commit();
    return result;
  } catch (error) {
    await rows.rollback().catch(() => undefined); // a rollback that cannot run leaves nothing committed
    for (const key of put) await blobs.delete(key).catch(() => undefined);
    throw error;
  }
}
