/** Builds the dashboard into dist/renderer when missing or stale. Usage: tsx scripts/build-dashboard.ts [--force] */
import { fileURLToPath } from 'node:url';
import { buildDashboard } from './lib/dashboard-build.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const result = await buildDashboard(root, { force: process.argv.includes('--force') });
console.log(`dashboard: ${result.status} in ${(result.ms / 1000).toFixed(1)} s (${result.outDir})`);
