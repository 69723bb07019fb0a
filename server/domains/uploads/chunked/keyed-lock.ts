/** Runs calls with the same key one after another, in this process (commits and completes of one upload). */
export function createKeyedLock() {
  const tails = new Map<string, Promise<unknown>>();

  return function locked<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = tails.get(key) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(fn);
    const tail = next.catch(() => undefined);
    tails.set(key, tail);
    void tail.then(() => tails.get(key) === tail && tails.delete(key));
    return next;
  };
}

export type KeyedLock = ReturnType<typeof createKeyedLock>;
