/** The tray menu as data (main.ts turns it into an Electron Menu): open, copy the API URL, login item, quit. */
export type TrayAction = 'open' | 'copy-api-url' | 'toggle-start-at-login' | 'quit';
export type TrayItem =
  | { type: 'action'; label: string; action: TrayAction; checked?: boolean; enabled?: boolean }
  | { type: 'separator' }
  | { type: 'info'; label: string };

export function trayMenuModel({
  url,
  preferredPort,
  startAtLogin,
}: {
  url: string;
  preferredPort: number;
  startAtLogin: boolean;
}): TrayItem[] {
  const port = Number(new URL(url).port);
  return [
    { type: 'action', label: 'Open Folio', action: 'open' },
    { type: 'action', label: `Copy API URL (${url}/api/v1)`, action: 'copy-api-url' },
    {
      type: 'info',
      label:
        port === preferredPort
          ? `Listening on ${url}`
          : `Port ${preferredPort} was taken: listening on ${url}`,
    },
    { type: 'separator' },
    { type: 'action', label: 'Start at login', action: 'toggle-start-at-login', checked: startAtLogin },
    { type: 'separator' },
    { type: 'action', label: 'Quit Folio', action: 'quit' },
  ];
}
