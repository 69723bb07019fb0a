// Runs the Folio server in the main process on 127.0.0.1 with the saved instance settings (port — another free
// one when it is taken —, data folder, Whisper threads), serving the packaged dashboard, and mints the owner's
// sign-in link for the window. Its log also goes to a rotating file in the data folder (server/log-file.ts).
import { join } from 'node:path';
import { createDesktopServer } from '../server/app.js';
import { choosePort } from './port.js';
import type { SecretBox } from './secrets.js';

export type ServerHost = Awaited<ReturnType<typeof startServerHost>>;

export type ServerHostOptions = {
  userData: string;
  appPath: string;
  /** The packaged app's whisper.cpp worker (an extra resource); a checkout uses build/whisper/. */
  whisperWorker?: string;
  /** safeStorage for the hosted sync keys (electron/secrets.ts); without it they stay in a 0600 file. */
  secretBox?: SecretBox;
};

export async function startServerHost({ userData, appPath, whisperWorker, secretBox }: ServerHostOptions) {
  // The packaged app serves the dashboard built into it; the settings screen writes the shell's file.
  const { server, savedPort } = await createDesktopServer({
    settingsPath: join(userData, 'settings.json'),
    defaultDataDir: userData,
    dashboardDir: join(appPath, 'dist/renderer'),
    choosePort,
    whisperWorker,
    secretBox,
  });
  const { config } = server;
  const { url } = await server.listen();
  server.log.info(`Folio listening on ${url}`);
  const signInUrl = await server.deps.identity.mintSignInLink(config.ownerEmail, url, {
    announce: false,
  });
  return {
    url,
    signInUrl,
    preferredPort: savedPort,
    dataDir: config.dataDir,
    ownerEmail: config.ownerEmail,
    /** The log file being written now (Settings reveals it). */
    logFile: () => server.deps.host.logFile?.() ?? join(config.dataDir, 'logs'),
    /** A fresh one-time link (the tray's "Open Folio" after the window was closed). */
    mintSignInLink: () => server.deps.identity.mintSignInLink(config.ownerEmail, url, { announce: false }),
    close: () => server.close(),
  };
}
