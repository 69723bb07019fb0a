// Electron lifecycle only: single instance, start the in-process server, open the window, quit cleanly.
import { app, ipcMain, shell } from 'electron';
import { CHANNELS } from './bridge.js';
import { startServerHost } from './server-host.js';
import { openMainWindow } from './window.js';

if (!app.requestSingleInstanceLock()) app.quit();

app.whenReady().then(async () => {
  const host = await startServerHost(app.getPath('userData'));
  process.env.FOLIO_APP_VERSION = app.getVersion();
  ipcMain.handle(CHANNELS.revealDataFolder, () => shell.openPath(host.dataDir));
  let window = openMainWindow(host.url, host.signInUrl);
  app.on('second-instance', () => {
    if (window.isDestroyed()) window = openMainWindow(host.url, host.signInUrl);
    window.focus();
  });
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', () => void host.close());
});
