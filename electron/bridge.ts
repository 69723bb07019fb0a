/** The only things the dashboard gets from Electron; everything else goes over HTTP like any browser. */
export type FolioBridge = {
  appVersion: string;
  revealDataFolder(): Promise<void>;
};

export const CHANNELS = { revealDataFolder: 'folio:reveal-data-folder' } as const;
