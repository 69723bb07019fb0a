// `npm run folio -- export|import <dir>`: a whole instance out of one backend and into another (docs/hosted.md);
// `npm run folio -- add <dir>`: every file under a folder as assets (docs/headless.md). The backend comes from the
// same flags and FOLIO_* environment as `npm run serve`: a data directory, or FOLIO_DATABASE_URL (+ FOLIO_S3_*);
// `add --url` goes through a running instance's API instead.
import { serveFlags } from '../config.js';
import { type CommandLine, failUsage, type ReadCommandLine, readCommandLine } from './command-line.js';

const flags = {
  'data-dir': serveFlags['data-dir'],
  workspace: {
    type: 'string',
    value: '<id|name>',
    help: 'add: the workspace (default: the only or personal one)',
  },
  tags: { type: 'string', value: '<a,b>', help: 'add: tags every new asset gets' },
  url: { type: 'string', value: '<origin>', help: 'add: a running Folio to add through its API' },
  key: {
    type: 'string',
    value: '<secret>',
    help: 'add --url: an API key with the assets service (FOLIO_KEY)',
  },
} as const;

const folioCommand: CommandLine<typeof flags> = {
  usage: [
    'npm run folio -- export <dir> [--data-dir <dir>]',
    'npm run folio -- import <dir> [--data-dir <dir>]',
    'npm run folio -- add <dir> [--workspace <id|name>] [--tags a,b] [--data-dir <dir>]',
    'npm run folio -- add <dir> --url <origin> --key <secret> [--tags a,b]',
  ],
  about: [
    'export copies a whole instance out of its backend into <dir>, import from <dir> into an empty one, checked by',
    'SHA-256. add makes an asset of every file under <dir> (symbolic links are not followed), skipping files whose',
    'content the workspace already holds, so a run that was interrupted continues where it stopped. The backend is',
    'the data folder, or FOLIO_DATABASE_URL (+ FOLIO_S3_*) as for npm run serve, or with --url a running Folio.',
  ].join('\n'),
  flags,
  positionals: true,
};

type Args = ReadCommandLine<typeof flags>;

async function main(): Promise<void> {
  const args = readCommandLine(folioCommand);
  if (!args) return;
  const problem = problemWith(args);
  if (problem) return failUsage(folioCommand, problem);
  const [command, dir] = args.positionals as [string, string];
  const log = (line: string) => console.log(line);
  if (command === 'add') return add(args, dir);
  const { withStore } = await import('./open-for-cli.js');
  await withStore(args.values['data-dir'], log, async (store) => {
    // Loaded only now, so --help and a wrong command line are answered without loading the store
    if (command === 'export') await (await import('./export.js')).exportStore(store, dir, log);
    else await (await import('./import.js')).importStore(store, dir, log);
  });
}

async function add({ values }: Args, dir: string): Promise<void> {
  const { runAdd } = await import('./add/run-add.js');
  const failed = await runAdd({
    dir,
    dataDir: values['data-dir'],
    workspace: values.workspace,
    tags: (values.tags ?? '')
      .split(',')
      .map((tag) => tag.trim())
      .filter(Boolean),
    url: values.url,
    key: values.key ?? process.env.FOLIO_KEY,
  });
  if (failed) process.exitCode = 1;
}

function problemWith({ positionals, values }: Args): string | undefined {
  const [command, dir, ...extra] = positionals;
  const commands = ['export', 'import', 'add'];
  if (!command) return 'Name a command: export, import or add';
  if (!commands.includes(command)) return `Unknown command '${command}': export, import or add`;
  if (!dir) return `${command} needs a folder: npm run folio -- ${command} <dir>`;
  if (extra.length) return `Unexpected argument '${extra[0]}'`;
  const addOnly = (['workspace', 'tags', 'url', 'key'] as const).find((flag) => values[flag] !== undefined);
  if (command !== 'add' && addOnly) return `--${addOnly} is for add`;
  if (values.url !== undefined && values['data-dir'] !== undefined)
    return '--url and --data-dir exclude each other';
  if (values.url !== undefined && values.workspace !== undefined)
    return '--url adds into the workspace of its key: drop --workspace';
  if (values.url !== undefined && !(values.key ?? process.env.FOLIO_KEY))
    return '--url needs --key (or FOLIO_KEY)';
  return undefined;
}

main().catch((error) => {
  console.error(`folio: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
