// The desktop app's log file: `<data folder>/logs/folio.<n>.log`, a new one past 5 MB, the newest five kept (pino-roll).
import { join } from 'node:path';

export type LogFile = {
  write(line: string): void;
  /** The file being written now (Settings reveals it). */
  current(): string;
  close(): Promise<void>;
};

export async function openLogFile(dataDir: string, { size = '5m', count = 4 } = {}): Promise<LogFile> {
  const { default: pinoRoll } = await import('pino-roll'); // the desktop app's only: not loaded where no file is kept
  const stream = await pinoRoll({
    file: join(dataDir, 'logs', 'folio.log'),
    size,
    mkdir: true,
    limit: { count, removeOtherLogFiles: true },
  });
  return {
    write: (line) => void stream.write(line),
    current: () => stream.file,
    close: () =>
      new Promise((resolve) => {
        stream.once('close', () => resolve());
        stream.end();
      }),
  };
}
