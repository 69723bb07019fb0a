// Runs the Folio server in the main process on 127.0.0.1 and mints the owner's sign-in link for the window.
import { createServer } from '../server/app.js';
import { DEFAULT_PORT, parseConfig } from '../server/config.js';
import { choosePort } from './port.js';

export async function startServerHost(dataDir: string) {
  const config = parseConfig({ dataDir, port: await choosePort(DEFAULT_PORT) });
  const server = await createServer(config);
  const { url } = await server.listen();
  const signInUrl = await server.services.identity.mintSignInLink(config.ownerEmail, url, {
    announce: false,
  });
  return { url, signInUrl, dataDir: config.dataDir, close: () => server.close() };
}
