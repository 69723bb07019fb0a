// Unique fields of one collection name across every scope (slugs and serve keys are unique instance-wide: docs/api.md),
// kept in memory so inserts check them and `Store.lookup` finds a row without knowing its workspace.
import { StoreConflict } from '../errors.js';
import type { CollectionSpec, Row } from '../types.js';

type Holder = { scope: string; id: string };

export type UniqueIndexes<T extends Row> = {
  /** Throws `StoreConflict` when another row holds one of `next`'s unique values. */
  check(next: T, current: T | undefined): void;
  replace(previous: T | undefined, next: T | undefined): void;
};

export function createUniqueRegistry<T extends Row>(spec: CollectionSpec<T>) {
  const fields = spec.unique ?? [];
  const maps = new Map(fields.map((field) => [field as string, new Map<string, Holder>()]));
  const uniqueValue = (row: T | undefined, field: string) => {
    const value = (row as Record<string, unknown> | undefined)?.[field];
    return value === undefined || value === null ? undefined : String(value);
  };

  function forScope(scope: string): UniqueIndexes<T> {
    return {
      check(next) {
        for (const [field, map] of maps) {
          const value = uniqueValue(next, field);
          const holder = value === undefined ? undefined : map.get(value);
          if (holder && (holder.scope !== scope || holder.id !== next.id))
            throw new StoreConflict(spec.name, field, value!);
        }
      },
      replace(previous, next) {
        for (const [field, map] of maps) {
          const old = uniqueValue(previous, field);
          const holder = old === undefined ? undefined : map.get(old);
          if (holder && holder.scope === scope && holder.id === previous!.id) map.delete(old!);
          const value = uniqueValue(next, field);
          if (value !== undefined) map.set(value, { scope, id: next!.id });
        }
      },
    };
  }

  return {
    forScope,
    find: (field: string, value: string): Holder | undefined => maps.get(field)?.get(value),
    forgetScope(scope: string) {
      for (const map of maps.values())
        for (const [value, holder] of map) if (holder.scope === scope) map.delete(value);
    },
  };
}

export type UniqueRegistry<T extends Row> = ReturnType<typeof createUniqueRegistry<T>>;
