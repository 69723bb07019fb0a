import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Puts what a write answered into the cache. A read of the same key that is still in flight was sent before the
 * write, so it is cancelled first: arriving later, it would put the old value back (a tag just added vanishing).
 */
export async function keepAnswer<T>(client: QueryClient, queryKey: QueryKey, answer: T): Promise<void> {
  await client.cancelQueries({ queryKey, exact: true });
  client.setQueryData(queryKey, answer);
}
