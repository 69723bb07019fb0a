// Headless sync: `npm run sync -- --workspace <id|name> [--remote <url> --key <fk_...>] [--data-dir <dir>] [--full]
// [--json]`. Opens the data folder itself (so no Folio may be running on it), saves a given remote and key as the
// workspace's settings (the key in the 0600 key file), runs one sync with progress on stderr, and exits 0 when all
// went through, 2 when some items failed (listed), 1 when the run could not finish.
import { parseArgs } from 'node:util';
import { buildServices } from './build-services.js';
import type { Progress } from './capabilities/sync/client/progress.js';
import type { RunSummary } from './capabilities/sync/collections.js';
import { workspacesCollection } from './capabilities/workspaces/collections.js';
import { defaultDataDir, parseConfig } from './config.js';
import type { Lifecycle } from './services.js';
import { openStore } from './store/open-store.js';

const USAGE =
  'Usage: npm run sync -- --workspace <id|name> [--remote <url> --key <fk_...>] [--data-dir <dir>] [--full] [--json] [--verbose]';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      workspace: { type: 'string' },
      remote: { type: 'string' },
      key: { type: 'string' },
      'data-dir': { type: 'string' },
      full: { type: 'boolean' },
      json: { type: 'boolean' },
      verbose: { type: 'boolean' },
    },
    strict: true,
  });
  if (!values.workspace) throw new Error(`--workspace is required\n${USAGE}`);
  const config = parseConfig({
    dataDir: values['data-dir'] ?? process.env.FOLIO_DATA_DIR ?? defaultDataDir(),
    fsync: process.env.FOLIO_FSYNC !== '0',
    quiet: true,
  });
  const log = (line: string) => console.error(line);
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
    const services = buildServices(config, store, lifecycle, log);
    const workspace = await findWorkspace(await store.instance(workspacesCollection).all(), values.workspace);
    const sync = services.sync.desktop;
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

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`Sync could not run: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  },
);
