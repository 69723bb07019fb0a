/**
 * A completed transcript written beside its recording as `<name>.txt` / `<name>.srt` ("interview.m4a" gives
 * "interview.txt"): only new files, created exclusively, so a file the user already has by that name is never
 * written over, and nothing is written through a link.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import type { BesideFormat } from './schema.js';

/** The files written; a name already taken is left as it is and reported as skipped. */
export async function writeBeside(
  recording: string,
  formats: BesideFormat[],
  textOf: (format: BesideFormat) => string,
): Promise<{ written: string[]; skipped: string[] }> {
  const stem = join(dirname(recording), basename(recording, extname(recording)));
  const written: string[] = [];
  const skipped: string[] = [];
  for (const format of formats) {
    const path = `${stem}.${format}`;
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
    const file = await open(path, flags, 0o644).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST' || error.code === 'ELOOP') return undefined;
      throw error;
    });
    if (!file) {
      skipped.push(path);
      continue;
    }
    try {
      await file.writeFile(textOf(format));
      written.push(path);
    } finally {
      await file.close();
    }
  }
  return { written, skipped };
}
