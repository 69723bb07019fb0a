// `npm run serve`: the headless server (server/main.ts), with the dashboard built first where it is missing or stale,
// so a fresh checkout after `npm ci` serves it with no other step. The server runs in this same process, and the
// build writes only to stderr: the start-up lines stay the first on stdout (docs/headless.md).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDashboard } from './lib/dashboard-build.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const asksOnly = process.argv
  .slice(2)
  .some((arg) => arg === '--help' || arg === '-h' || arg.startsWith('--print-mcp-config'));

// A copy without the dashboard's sources (a trimmed image) serves what it was built with.
if (!asksOnly && existsSync(join(root, 'renderer'))) {
  try {
    const build = await buildDashboard(root, { quiet: true, stderr: true });
    if (build.status === 'built') console.error(`dashboard: built in ${(build.ms / 1000).toFixed(1)} s`);
  } catch (error) {
    console.error(`dashboard: not built (${(error as Error).message}); the server starts without it`);
  }
}
await import('../server/main.js');
