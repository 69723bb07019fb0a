/** Builds the dashboard once for the whole test run when missing or stale (files run in parallel: a lock). */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import lockfile from 'proper-lockfile';
import { buildDashboard } from '../../scripts/lib/dashboard-build.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

export async function ensureDashboard(): Promise<void> {
  mkdirSync(`${root}dist`, { recursive: true });
  const release = await lockfile.lock(`${root}dist`, {
    lockfilePath: `${root}dist/.dashboard-build.lock`,
    retries: { retries: 120, minTimeout: 500, maxTimeout: 1000 },
    stale: 120_000,
  });
  try {
    await buildDashboard(root, { quiet: true });
  } finally {
    await release();
  }
}
