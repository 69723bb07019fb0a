/** The only things the dashboard gets from Electron; everything else goes over HTTP like any browser. */
export type FolioBridge = {
  appVersion: string;
  revealDataFolder(): Promise<void>;
  /** The system's folder picker: the chosen folder's path, or null when cancelled. */
  chooseFolder(): Promise<string | null>;
};

export const CHANNELS = {
  revealDataFolder: 'folio:reveal-data-folder',
  chooseFolder: 'folio:choose-folder',
} as const;
