// A Logger for unit tests: keeps each message, and the level its caller chose for it.
import type { Logger } from '../../server/log.js';

export function lineLog() {
  const lines: string[] = [];
  const entries: Array<{ level: 'info' | 'warn' | 'error'; message: string; error?: unknown }> = [];
  const keep = (level: 'info' | 'warn' | 'error') => (message: string, error?: unknown) => {
    lines.push(message);
    entries.push({ level, message, ...(level === 'error' && error !== undefined && { error }) });
  };
  const log: Logger = { info: keep('info'), warn: keep('warn'), error: keep('error') };
  return { log, lines, entries };
}
