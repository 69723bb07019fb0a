// The system's folder picker for the dashboard (Settings › Watched folders), asked over IPC by the dashboard's own
// pages only; a plain browser types the path instead.
import { BrowserWindow, dialog, ipcMain } from 'electron';
import { CHANNELS } from './bridge.js';
import { isLocalUrl } from './navigation.js';

export function answerFolderPicker(dashboardUrl: string): void {
  ipcMain.handle(CHANNELS.chooseFolder, async (event) => {
    if (!isLocalUrl(event.senderFrame?.url ?? '', dashboardUrl)) return null;
    const window = BrowserWindow.fromWebContents(event.sender);
    const options = { properties: ['openDirectory' as const, 'createDirectory' as const] };
    const chosen = window
      ? await dialog.showOpenDialog(window, options)
      : await dialog.showOpenDialog(options);
    return chosen.canceled ? null : (chosen.filePaths[0] ?? null);
  });
}
