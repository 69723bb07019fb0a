/** The only things the dashboard gets from Electron; everything else goes over HTTP like any browser. */
export type FolioBridge = {
  appVersion: string;
  revealDataFolder(): Promise<void>;
  /** The system's folder picker: the chosen folder's path, or null when cancelled. */
  chooseFolder(): Promise<string | null>;
  /** Shows the log file being written now in the file manager. */
  revealLogFile(): Promise<void>;
};

export const CHANNELS = {
  revealDataFolder: 'folio:reveal-data-folder',
  chooseFolder: 'folio:choose-folder',
  revealLogFile: 'folio:reveal-log-file',
} as const;
