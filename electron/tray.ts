import { clipboard, Menu, nativeImage, Tray } from 'electron';
import { type TrayAction, trayMenuModel } from './tray-menu.js';

/** The tray icon and its menu (built from tray-menu.ts); rebuilt when a checkbox changes. */
export function createTray(
  iconPath: string,
  state: () => { url: string; preferredPort: number; startAtLogin: boolean },
  on: Record<Exclude<TrayAction, 'copy-api-url'>, () => void>,
): Tray {
  const tray = new Tray(nativeImage.createFromPath(iconPath).resize({ width: 16, height: 16 }));
  tray.setToolTip('Folio');
  const rebuild = () => {
    const model = trayMenuModel(state());
    tray.setContextMenu(
      Menu.buildFromTemplate(
        model.map((item) =>
          item.type === 'separator'
            ? { type: 'separator' as const }
            : item.type === 'info'
              ? { label: item.label, enabled: false }
              : {
                  label: item.label,
                  type: item.checked === undefined ? ('normal' as const) : ('checkbox' as const),
                  checked: item.checked,
                  click: () => {
                    if (item.action === 'copy-api-url') clipboard.writeText(`${state().url}/api/v1`);
                    else on[item.action]();
                    rebuild();
                  },
                },
        ),
      ),
    );
  };
  rebuild();
  tray.on('click', on.open);
  return tray;
}
