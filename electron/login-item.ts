// Start at login, in the tray: Electron 45 dropped macOS's `openAsHidden`, so a login launch is told apart instead
// (macOS says so itself; Windows passes the argument registered with the login item) and opens no window.

/** The argument a login launch carries on Windows. */
export const HIDDEN_ARG = '--hidden';

/** What `app.setLoginItemSettings` gets for the user's choice. */
export function loginItemSettings(startAtLogin: boolean): { openAtLogin: boolean; args: string[] } {
  return { openAtLogin: startAtLogin, args: [HIDDEN_ARG] };
}

/** Whether this launch came from the login item: then Folio starts in the tray, without its window. */
export function launchedAtLogin(argv: readonly string[], wasOpenedAtLogin: boolean): boolean {
  return wasOpenedAtLogin || argv.includes(HIDDEN_ARG);
}
