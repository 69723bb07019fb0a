import { BrowserWindow, screen, shell } from 'electron';
import { isExternalWebUrl, isLocalUrl } from './navigation.js';
import { allowPermission } from './permissions.js';
import { preloadScript } from './preload-path.js';
import type { WindowState } from './settings.js';
import { captureState, restoreBounds } from './window-state.js';

/** The dashboard window: sandboxed, navigation locked to the local origin, external links in the browser. */
export function openMainWindow(
  origin: string,
  signInUrl: string,
  saved: WindowState,
  onState: (state: WindowState) => void,
  { hidden = false }: { hidden?: boolean } = {},
): BrowserWindow {
  const bounds = restoreBounds(
    saved,
    screen.getAllDisplays().map((d) => d.workArea),
  );
  const window = new BrowserWindow({
    ...bounds,
    minWidth: 900,
    minHeight: 600,
    title: 'Folio',
    show: false,
    webPreferences: {
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: true,
      preload: preloadScript(),
    },
  });
  if (saved.maximized) window.maximize();
  if (!hidden) window.once('ready-to-show', () => window.show()); // hidden: a login launch, in the tray
  window.webContents.on('will-navigate', (event, url) => {
    if (!isLocalUrl(url, origin)) event.preventDefault();
  });
  window.webContents.on('will-redirect', (event, url) => {
    if (!isLocalUrl(url, origin)) event.preventDefault();
  });
  window.webContents.setWindowOpenHandler(({ url }) => {
    const opened = (error: Error) => console.error(`Folio: opening ${url}: ${error.message}`);
    if (isExternalWebUrl(url) && !isLocalUrl(url, origin)) shell.openExternal(url).catch(opened);
    else if (isLocalUrl(url, origin)) shell.openExternal(url).catch(opened); // a published page opens in the browser too
    return { action: 'deny' };
  });
  const session = window.webContents.session;
  session.setPermissionRequestHandler((contents, permission, callback, details) =>
    callback(
      allowPermission(
        permission,
        details.requestingUrl ?? contents.getURL(),
        origin,
        details as { mediaTypes?: string[] },
      ),
    ),
  );
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    allowPermission(permission, requestingOrigin, origin),
  );
  window.on('close', () => onState(captureState(window.getNormalBounds(), window.isMaximized())));
  // a load that fails (aborted by a redirect, the server gone) shows in the window; the promise is not the place
  window.loadURL(signInUrl).catch(() => undefined);
  return window;
}
