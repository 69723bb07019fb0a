// `npm run folio -- export <dir> [flags]` and `npm run folio -- import <dir> [flags]`: a whole instance out of one
// backend and into another (docs/hosted.md). The backend comes from the same flags and FOLIO_* environment as
// `npm run serve`: a data directory, or FOLIO_DATABASE_URL (+ FOLIO_S3_*).
import { configFromProcess } from '../config.js';
import { openStore } from '../store/open-store.js';
import { exportStore } from './export.js';
import { importStore } from './import.js';

const USAGE = 'usage: folio export <dir> [--data-dir <dir>] | folio import <dir> [--data-dir <dir>]';

async function main(argv: string[]): Promise<void> {
  const [command, dir, ...flags] = argv;
  if ((command !== 'export' && command !== 'import') || !dir) throw new Error(USAGE);
  const config = configFromProcess(flags);
  const log = (line: string) => console.log(line);
  const store = await openStore({ ...config, log });
  try {
    if (command === 'export') await exportStore(store, dir, log);
    else await importStore(store, dir, log);
  } finally {
    await store.close();
  }
}

main(process.argv.slice(2)).catch((error) => {
  console.error(`folio: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
