import { readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { consoleLogger, type Logger } from '../../log.js';

/**
 * One server per data directory: a second one would interleave journal writes. proper-lockfile only calls
 * a lock stale after 15 s without a heartbeat, so after a crash (kill -9, power cut) the next start was
 * refused for up to 15 s. The holder's pid and host are recorded beside the lock; when that process is
 * gone on this host, the lock is taken over at once.
 */
export async function lockDataDir(
  dataDir: string,
  log: Logger = consoleLogger,
): Promise<() => Promise<void>> {
  const lockfilePath = join(dataDir, '.lock');
  const options = {
    lockfilePath,
    stale: 15_000,
    update: 5_000,
    // proper-lockfile throws from a timer by default when it cannot refresh the lock (a full disk): that would kill
    // the server over a heartbeat. holderIsGone still keeps a second server out while this one lives.
    onCompromised: (error: Error) => log.warn(`Data directory lock could not be refreshed: ${error.message}`),
  };
  const ownerFile = join(dataDir, '.lock-owner');
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(dataDir, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    if (!(await holderIsGone(ownerFile))) throw new Error(`Another Folio server is already using ${dataDir}`);
    await rm(lockfilePath, { recursive: true, force: true });
    release = await lockfile.lock(dataDir, options).catch((again) => {
      if (again.code === 'ELOCKED') throw new Error(`Another Folio server is already using ${dataDir}`);
      throw again;
    });
  }
  await writeFile(ownerFile, JSON.stringify({ pid: process.pid, host: hostname() }));
  return release;
}

async function holderIsGone(ownerFile: string): Promise<boolean> {
  const holder = await readFile(ownerFile, 'utf8').then(
    (text) => JSON.parse(text) as { pid?: unknown; host?: unknown },
    () => undefined,
  );
  if (!holder || typeof holder.pid !== 'number' || holder.host !== hostname() || holder.pid === process.pid)
    return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
