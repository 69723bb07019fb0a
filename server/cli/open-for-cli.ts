// The store a command works on: the same flags and FOLIO_* environment as `npm run serve`, opened once and closed
// whatever the command does.
import { type Config, configFromProcess } from '../config.js';
import { createLogger } from '../log.js';
import type { Store } from '../store/types.js';

export async function withStore<T>(
  dataDir: string | undefined,
  log: (line: string) => void,
  work: (store: Store, config: Config) => Promise<T>,
): Promise<T> {
  const config = configFromProcess(dataDir === undefined ? [] : ['--data-dir', dataDir]);
  const { openStore } = await import('../store/open-store.js');
  const store = await openStore({ ...config, log: createLogger(config, log) });
  try {
    return await work(store, config);
  } finally {
    await store.close();
  }
}
