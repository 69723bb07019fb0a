// Child-process entry for tests that need the server in its own process (its own event loop, as a client
// meets it) with settings the command line does not offer: `createServer(JSON.parse(argv[2]))`, then the
// two start-up lines server/main.ts prints.
import { createServer } from '../../server/app.js';

const server = await createServer(JSON.parse(process.argv[2] ?? '{}'), () => undefined);
const { url } = await server.listen();
const ownerLink = await server.deps.identity.mintSignInLink(server.config.ownerEmail, url, {
  announce: false,
});
console.log(`Folio listening on ${url}`);
console.log(`Owner sign-in: ${ownerLink}`);
process.once('SIGTERM', async () => {
  await server.close();
  process.exit(0);
});
