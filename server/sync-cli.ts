// Headless sync: `npm run sync -- --workspace <id|name> [--remote <url> --key <fk_...>] [--data-dir <dir>] [--full]
// [--json]`. Opens the data folder itself (so no Folio may be running on it), saves a given remote and key as the
// workspace's settings (the key in the 0600 key file), runs one sync with progress on stderr, and exits 0 when all
// went through, 2 when some items failed (listed) or the command line is wrong, 1 when the run could not finish.

import { type CommandLine, failUsage, type ReadCommandLine, readCommandLine } from './cli/command-line.js';
import { defaultDataDir, parseConfig } from './config.js';
import type { Lifecycle } from './deps.js';
import type { RunSummary } from './domains/sync/collections.js';
import type { Progress } from './domains/sync/desktop/progress.js';

const syncFlags = {
  workspace: {
    type: 'string',
    value: '<id|name>',
    help: 'The workspace to sync: its id, or its name (required)',
  },
  remote: { type: 'string', value: '<url>', help: "The hosted Folio to sync with; saved as the workspace's" },
  key: {
    type: 'string',
    value: '<fk_...>',
    help: 'A key of the remote with the sync service; saved in the key file',
  },
  'data-dir': { type: 'string', value: '<dir>', help: "Data folder (FOLIO_DATA_DIR; the desktop app's)" },
  full: { type: 'boolean', help: 'Compare everything, not only what changed since the last run' },
  json: { type: 'boolean', help: "Print the run's summary as JSON on stdout" },
  verbose: { type: 'boolean', help: 'Report every step, not one line a second' },
} as const;

const syncCommand: CommandLine<typeof syncFlags> = {
  usage: [
    'npm run sync -- --workspace <id|name> [--remote <url> --key <fk_...>] [--data-dir <dir>] [--full] [--json] [--verbose]',
  ],
  about:
    'Runs one sync of a workspace with its hosted Folio, progress on stderr. Folio must not be running on the data\nfolder. Exits 0 when all went through, 2 when some items failed (listed), 1 when the run could not finish.',
  flags: syncFlags,
};

async function main(workspaceName: string, { values }: ReadCommandLine<typeof syncFlags>): Promise<number> {
  // Loaded only now, so --help and a wrong command line are answered without loading every service
  const { buildDeps } = await import('./build-deps.js');
  const { workspacesCollection } = await import('./domains/workspaces/collections.js');
  const { openStore } = await import('./store/open-store.js');
  const config = parseConfig({
    dataDir: values['data-dir'] ?? process.env.FOLIO_DATA_DIR ?? defaultDataDir(),
    fsync: process.env.FOLIO_FSYNC !== '0',
    quiet: true,
  });
  const { createLogger } = await import('./log.js');
  const log = createLogger(config, (line) => console.error(line));
  const store = await openStore({ dataDir: config.dataDir, fsync: config.fsync, log }).catch((error) => {
    if (/already using/.test((error as Error).message))
      throw new Error(
        `Folio is running on ${config.dataDir}: use Sync now in the app (POST /api/v1/sync/run), or stop it first`,
      );
    throw error;
  });
  const stops: Array<() => Promise<void> | void> = [];
  const lifecycle: Lifecycle = { onClose: (stop) => void stops.push(stop), closing: () => false };
  try {
    const deps = buildDeps(config, store, lifecycle, log);
    const workspace = await findWorkspace(await store.instance(workspacesCollection).all(), workspaceName);
    const sync = deps.sync.desktop;
    if (values.remote || values.key)
      await sync.saveSettings(workspace.id, {
        ...(values.remote && { remoteUrl: values.remote }),
        ...(values.key && { key: values.key }),
      });
    console.error(
      `Syncing "${workspace.name}" (${workspace.id}) with ${(await sync.settings(workspace.id)).remoteUrl}`,
    );
    const summary = await sync.run(workspace.id, { full: values.full, onProgress: reporter(values.verbose) });
    report(summary, Boolean(values.json));
    return summary.error ? 1 : summary.ok ? 0 : 2;
  } finally {
    for (const stop of stops.reverse()) await stop();
    await store.close();
  }
}

async function findWorkspace(
  all: Array<{ id: string; name: string }>,
  wanted: string,
): Promise<{ id: string; name: string }> {
  const found = all.find((w) => w.id === wanted) ?? all.filter((w) => w.name === wanted);
  if (!Array.isArray(found)) return found;
  if (found.length === 1) return found[0];
  const names = all.map((w) => `${w.name} (${w.id})`).join(', ') || 'none';
  throw new Error(
    found.length
      ? `Several workspaces are named "${wanted}": give its id`
      : `No workspace "${wanted}"; there are: ${names}`,
  );
}

/** A line when the phase changes, and at most one a second while it runs (every step with --verbose). */
function reporter(verbose = false) {
  let last = 0;
  let phase: string | null = null;
  return (progress: Progress) => {
    const now = Date.now();
    if (!verbose && progress.phase === phase && now - last < 1000) return;
    phase = progress.phase;
    last = now;
    const p = phase ? progress.phases[phase as keyof typeof progress.phases] : undefined;
    if (!p) return;
    const bytes = p.bytesTotal ? `, ${mb(p.bytesDone)} of ${mb(p.bytesTotal)} MB` : '';
    console.error(`  ${phase}: ${p.done} of ${p.total}${bytes}`);
  };
}

function report(summary: RunSummary, json: boolean): void {
  if (json) console.log(JSON.stringify(summary));
  const counts = Object.entries(summary.counts)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  console.error(
    summary.error ? `Sync stopped: ${summary.error}` : `Sync finished: ${counts || 'nothing to do'}`,
  );
  for (const s of summary.skipped) console.error(`  skipped ${s.count ?? ''} ${s.kind} records: ${s.reason}`);
  for (const e of summary.errors) console.error(`  failed ${e.kind} ${e.id} (${e.phase}): ${e.error}`);
}

const mb = (n: number) => (n / 1e6).toFixed(1);

const args = readCommandLine(syncCommand);
if (args && !args.values.workspace) failUsage(syncCommand, '--workspace is required');
else if (args?.values.workspace)
  main(args.values.workspace, args).then(
    (code) => process.exit(code),
    (error) => {
      console.error(`Sync could not run: ${error instanceof Error ? error.message : error}`);
      process.exit(1);
    },
  );
