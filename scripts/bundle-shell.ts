/** Bundles electron/ into dist/electron (main.js, preload.cjs) for `npm start` and packaging. */
import { fileURLToPath } from 'node:url';
import { bundleShell } from './lib/bundle-shell.js';

await bundleShell(fileURLToPath(new URL('..', import.meta.url)));
console.log('electron: dist/electron/main.js, dist/electron/preload.cjs');
