// Runs the Folio server in the main process on 127.0.0.1 with the saved instance settings (port — another free
// one when it is taken —, data folder, Whisper threads), serving the packaged dashboard, and mints the owner's
// sign-in link for the window.
import { join } from 'node:path';
import { createServer } from '../server/app.js';
import { parseConfig } from '../server/config.js';
import { settingsFile } from '../server/domains/settings/settings-store.js';
import { builtDashboard } from '../server/surfaces/home/dashboard-files.js';
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
  const settings = settingsFile(join(userData, 'settings.json'));
  const saved = await settings.read();
  const config = parseConfig({
    dataDir: saved.dataDir ?? userData,
    port: await choosePort(saved.port),
    whisperThreads: saved.whisperThreads,
    whisperDevice: saved.whisperDevice,
    whisperWorker,
  });
  const server = await createServer(config, console.log, {
    secretBox,
    // The packaged app serves the dashboard built into it; the settings screen writes the shell's file.
    host: { dashboard: builtDashboard(join(appPath, 'dist/renderer')), instanceSettings: settings },
  });
  const { url } = await server.listen();
  const signInUrl = await server.services.identity.mintSignInLink(config.ownerEmail, url, {
    announce: false,
  });
  return {
    url,
    signInUrl,
    preferredPort: saved.port,
    dataDir: config.dataDir,
    ownerEmail: config.ownerEmail,
    /** A fresh one-time link (the tray's "Open Folio" after the window was closed). */
    mintSignInLink: () =>
      server.services.identity.mintSignInLink(config.ownerEmail, url, { announce: false }),
    close: () => server.close(),
  };
}
