import { describe, expect, it } from 'vitest';
import { trayMenuModel } from '../../electron/tray-menu.js';

describe('tray menu', () => {
  it('open, copy the API URL, where it listens, start at login, quit', () => {
    const model = trayMenuModel({ url: 'http://127.0.0.1:4780', preferredPort: 4780, startAtLogin: true });
    expect(model.map((i) => (i.type === 'separator' ? '—' : i.label))).toEqual([
      'Open Folio',
      'Copy API URL (http://127.0.0.1:4780/api/v1)',
      'Listening on http://127.0.0.1:4780',
      '—',
      'Start at login',
      '—',
      'Quit Folio',
    ]);
    expect(model.find((i) => i.type === 'action' && i.action === 'toggle-start-at-login')).toMatchObject({
      checked: true,
    });
  });

  it('says so when the preferred port was taken', () => {
    const model = trayMenuModel({ url: 'http://127.0.0.1:51234', preferredPort: 4780, startAtLogin: false });
    expect(model).toContainEqual({
      type: 'info',
      label: 'Port 4780 was taken: listening on http://127.0.0.1:51234',
    });
  });
});
