// npm run build:server: dist/server/, what the packaged app and the hosted image run (scripts/lib/build-server.ts).
import { fileURLToPath } from 'node:url';
import { buildServer } from './lib/build-server.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const { ms } = await buildServer(root);
console.log(`server: built dist/server/ in ${(ms / 1000).toFixed(1)} s`);
