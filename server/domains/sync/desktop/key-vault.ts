// Where the desktop keeps each workspace's hosted key: `<data>/sync-keys.json`, readable by this user only (0600).
// In the desktop app the shell hands in a box backed by Electron's safeStorage (the OS keychain), and the file
// holds only what the box sealed; without one (headless) it holds the key itself, as ssh keeps a private key.
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { nanoid } from 'nanoid';

/** What the desktop shell offers for secrets (electron/secrets.ts wraps safeStorage this way). */
export type SecretBox = {
  available: boolean;
  reason?: string;
  seal(plain: string): string;
  open(sealed: string): string;
};

type Entry = { sealed: string } | { plain: string };

export function createKeyVault({ dataDir, box }: { dataDir: string; box?: SecretBox }) {
  const path = join(dataDir, 'sync-keys.json');
  let queue: Promise<unknown> = Promise.resolve();

  async function read(): Promise<Record<string, Entry>> {
    const text = await readFile(path, 'utf8').catch((error) => {
      if (error.code === 'ENOENT') return '{}';
      throw error;
    });
    try {
      return JSON.parse(text) as Record<string, Entry>;
    } catch {
      throw new Error(`${path} is damaged; remove it and enter the sync keys again`);
    }
  }

  /** Writes the whole file as 0600 from its first byte (a temp file made with that mode, then renamed). */
  async function write(entries: Record<string, Entry>): Promise<void> {
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.${nanoid(6)}.tmp`;
    await writeFile(tmp, JSON.stringify(entries, null, 2), { mode: 0o600 });
    await chmod(tmp, 0o600);
    await rename(tmp, path);
  }

  function serial<T>(work: () => Promise<T>): Promise<T> {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  }

  return {
    /** `safeStorage` when the OS keychain protects the keys, `file` for the 0600 file alone. */
    storage: box ? ('safeStorage' as const) : ('file' as const),
    async get(workspaceId: string): Promise<string | undefined> {
      const entry = (await read())[workspaceId];
      if (!entry) return undefined;
      if ('plain' in entry) return entry.plain;
      if (!box?.available) throw new Error(`The sync key cannot be read: ${box?.reason ?? 'no keychain'}`);
      return box.open(entry.sealed);
    },
    set: (workspaceId: string, key: string) =>
      serial(async () => {
        if (box && !box.available) throw new Error(`Cannot keep the sync key safely: ${box.reason}`);
        const entries = await read();
        entries[workspaceId] = box ? { sealed: box.seal(key) } : { plain: key };
        await write(entries);
      }),
    remove: (workspaceId: string) =>
      serial(async () => {
        const entries = await read();
        if (!(workspaceId in entries)) return;
        delete entries[workspaceId];
        if (Object.keys(entries).length) await write(entries);
        else await rm(path, { force: true });
      }),
  };
}

export type KeyVault = ReturnType<typeof createKeyVault>;
