// `npm run folio -- export <dir> [flags]` and `npm run folio -- import <dir> [flags]`: a whole instance out of one
// backend and into another (docs/hosted.md). The backend comes from the same flags and FOLIO_* environment as
// `npm run serve`: a data directory, or FOLIO_DATABASE_URL (+ FOLIO_S3_*).
import { configFromProcess, serveFlags } from '../config.js';
import { type CommandLine, failUsage, readCommandLine } from './command-line.js';

const folioCommand: CommandLine<{ 'data-dir': (typeof serveFlags)['data-dir'] }> = {
  usage: [
    'npm run folio -- export <dir> [--data-dir <dir>]',
    'npm run folio -- import <dir> [--data-dir <dir>]',
  ],
  about:
    'Copies a whole instance out of its backend into <dir> (export), or from <dir> into an empty one (import),\nchecked by SHA-256. The backend is the data folder, or FOLIO_DATABASE_URL (+ FOLIO_S3_*) as for npm run serve.',
  flags: { 'data-dir': serveFlags['data-dir'] },
  positionals: true,
};

async function main(): Promise<void> {
  const args = readCommandLine(folioCommand);
  if (!args) return;
  const [command, dir] = args.positionals;
  const problem = problemWith(args.positionals);
  if (problem) return failUsage(folioCommand, problem);
  const dataDir = args.values['data-dir'];
  const config = configFromProcess(dataDir === undefined ? [] : ['--data-dir', dataDir]);
  // Loaded only now, so --help and a wrong command line are answered without loading the store
  const [{ openStore }, { exportStore }, { importStore }] = await Promise.all([
    import('../store/open-store.js'),
    import('./export.js'),
    import('./import.js'),
  ]);
  const { createLogger } = await import('../log.js');
  const log = (line: string) => console.log(line);
  const store = await openStore({ ...config, log: createLogger(config, log) });
  try {
    if (command === 'export') await exportStore(store, dir, log);
    else await importStore(store, dir, log);
  } finally {
    await store.close();
  }
}

function problemWith([command, dir, ...extra]: string[]): string | undefined {
  if (!command) return 'Name a command: export or import';
  if (command !== 'export' && command !== 'import') return `Unknown command '${command}': export or import`;
  if (!dir) return `${command} needs a folder: npm run folio -- ${command} <dir>`;
  if (extra.length) return `Unexpected argument '${extra[0]}'`;
  return undefined;
}

main().catch((error) => {
  console.error(`folio: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
