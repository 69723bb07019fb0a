import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openFileStore } from '../../../server/store/file/store.js';
import type { Store } from '../../../server/store/types.js';
import { describeStoreContract } from './store-contract.js';

describeStoreContract('files', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'folio-contract-'));
  let store: Store = await openFileStore({ dataDir, fsync: false });
  return {
    get store() {
      return store;
    },
    async reopen() {
      await store.close();
      store = await openFileStore({ dataDir, fsync: false });
      return store;
    },
    async cleanup() {
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
});
