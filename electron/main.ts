// Electron lifecycle only: single instance, the in-process server, the window, tray, notifications, quit.
import { join } from 'node:path';
import { app, dialog, ipcMain, Notification, safeStorage, shell } from 'electron';
import { CHANNELS } from './bridge.js';
import { answerFolderPicker } from './folder-picker.js';
import { launchedAtLogin, loginItemSettings } from './login-item.js';
import { isLocalUrl } from './navigation.js';
import { createSecretBox } from './secrets.js';
import { startServerHost } from './server-host.js';
import { readShellSettings, type ShellSettings, writeShellSettings } from './settings.js';
import { watchTranscripts } from './transcript-watch.js';
import { createTray } from './tray.js';
import { openMainWindow } from './window.js';

if (!app.requestSingleInstanceLock()) app.quit();
else
  void app
    .whenReady()
    .then(start)
    .catch((error: Error) => {
      // the data folder held by another Folio, a port or disk refused: said once, instead of a window that never opens
      dialog.showErrorBox('Folio could not start', error.message);
      app.quit();
    });

/** Fire-and-forget work of the shell: a failure is logged, never left unheard. */
const logFailure = (what: string) => (error: Error) => console.error(`Folio: ${what}: ${error.message}`);

async function start() {
  const userData = app.getPath('userData');
  const shellFile = join(userData, 'shell.json');
  let settings: ShellSettings = await readShellSettings(shellFile);
  const save = (change: Partial<ShellSettings>) => {
    settings = { ...settings, ...change };
    writeShellSettings(shellFile, settings).catch(logFailure(`saving ${shellFile}`));
  };
  process.env.FOLIO_APP_VERSION = app.getVersion();
  const worker = process.platform === 'win32' ? 'folio-whisper-worker.exe' : 'folio-whisper-worker';
  const host = await startServerHost({
    userData,
    appPath: app.getAppPath(),
    whisperWorker: app.isPackaged ? join(process.resourcesPath, 'whisper', worker) : undefined,
    secretBox: createSecretBox(safeStorage),
  });
  // only the dashboard's own pages may ask (Electron's checklist: validate every IPC message's sender)
  ipcMain.handle(CHANNELS.revealDataFolder, (event) =>
    isLocalUrl(event.senderFrame?.url ?? '', host.url) ? shell.openPath(host.dataDir) : 'refused',
  );
  answerFolderPicker(host.url);
  ipcMain.handle(CHANNELS.revealLogFile, (event) =>
    isLocalUrl(event.senderFrame?.url ?? '', host.url) ? shell.showItemInFolder(host.logFile()) : 'refused',
  );

  const hidden = launchedAtLogin(process.argv, app.getLoginItemSettings().wasOpenedAtLogin);
  let window = openMainWindow(host.url, host.signInUrl, settings.window, (state) => save({ window: state }), {
    hidden,
  });
  const show = async () => {
    if (window.isDestroyed())
      window = openMainWindow(host.url, await host.mintSignInLink(), settings.window, (state) =>
        save({ window: state }),
      );
    window.show();
    window.focus();
  };
  app.on('second-instance', () => void show().catch(logFailure('opening the window')));
  app.on('activate', () => void show().catch(logFailure('opening the window')));

  const tray = createTray(
    join(app.getAppPath(), 'build/icons/tray.png'),
    () => ({ url: host.url, preferredPort: host.preferredPort, startAtLogin: settings.startAtLogin }),
    {
      open: () => void show().catch(logFailure('opening the window')),
      'toggle-start-at-login': () => {
        save({ startAtLogin: !settings.startAtLogin });
        app.setLoginItemSettings(loginItemSettings(settings.startAtLogin));
      },
      quit: () => app.quit(),
    },
  );
  if (host.preferredPort !== Number(new URL(host.url).port))
    new Notification({
      title: 'Folio is on another port',
      body: `Port ${host.preferredPort} was taken: Folio listens on ${host.url}`,
    }).show();

  const stopWatching = watchTranscripts({
    url: host.url,
    signInUrl: host.mintSignInLink,
    options: () => ({
      enabled: settings.notifyLongTranscriptions,
      minSeconds: settings.longTranscriptionSeconds,
      windowFocused: !window.isDestroyed() && window.isFocused(),
    }),
    notify: ({ id, title, body }) => {
      const notice = new Notification({ title, body });
      notice.on(
        'click',
        () =>
          void show()
            .then(() => window.loadURL(`${host.url}/transcripts/${id}`))
            .catch(logFailure('opening the transcript')),
      );
      notice.show();
    },
  });

  // Closing the window keeps Folio serving agents from the tray; Quit stops it.
  app.on('window-all-closed', () => undefined);
  app.on('before-quit', () => {
    stopWatching();
    tray.destroy();
    host.close().catch(logFailure('stopping the server'));
  });
}
