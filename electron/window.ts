import { fileURLToPath } from 'node:url';
import { BrowserWindow, shell } from 'electron';
import { isExternalWebUrl, isLocalUrl } from './navigation.js';

export function openMainWindow(origin: string, signInUrl: string): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    title: 'Folio',
    webPreferences: {
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      preload: fileURLToPath(new URL('./preload.cjs', import.meta.url)),
    },
  });
  window.webContents.on('will-navigate', (event, url) => {
    if (!isLocalUrl(url, origin)) event.preventDefault();
  });
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (isExternalWebUrl(url) && !isLocalUrl(url, origin)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  window.webContents.session.setPermissionRequestHandler((_contents, _permission, callback) =>
    callback(false),
  );
  void window.loadURL(signInUrl);
  return window;
}
