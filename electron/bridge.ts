/** The only things the dashboard gets from Electron; everything else goes over HTTP like any browser. */
export type FolioBridge = {
  appVersion: string;
  revealDataFolder(): Promise<void>;
  /** Shows the log file being written now in the file manager. */
  revealLogFile(): Promise<void>;
};

export const CHANNELS = {
  revealDataFolder: 'folio:reveal-data-folder',
  revealLogFile: 'folio:reveal-log-file',
} as const;
