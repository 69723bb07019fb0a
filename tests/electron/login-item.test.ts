// Start at login in the tray (electron/login-item.ts): the registered launch is recognised on each platform, and an
// ordinary launch opens the window.
import { describe, expect, it } from 'vitest';
import { HIDDEN_ARG, launchedAtLogin, loginItemSettings } from '../../electron/login-item.js';

describe('start at login', () => {
  it('registers the login item with the argument that marks its launches', () => {
    expect(loginItemSettings(true)).toEqual({ openAtLogin: true, args: [HIDDEN_ARG] });
    expect(loginItemSettings(false).openAtLogin).toBe(false);
  });

  it('a login launch (Windows: the argument; macOS: its own flag) starts hidden, any other opens the window', () => {
    expect(launchedAtLogin(['/opt/Folio/folio', HIDDEN_ARG], false)).toBe(true);
    expect(launchedAtLogin(['/Applications/Folio.app/Contents/MacOS/Folio'], true)).toBe(true);
    expect(launchedAtLogin(['/opt/Folio/folio'], false)).toBe(false);
  });
});
