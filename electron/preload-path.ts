import { fileURLToPath } from 'node:url';

/** The window's preload script: scripts/lib/bundle-shell.ts writes it as preload.cjs beside the bundled main.js. */
export const preloadScript = () => fileURLToPath(new URL('./preload.cjs', import.meta.url));
