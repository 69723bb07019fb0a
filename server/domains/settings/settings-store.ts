/**
 * Where saved settings live. The desktop shell hands the server a store backed by its settings file
 * (`deps.host.instanceSettings`, set in electron/server-host.ts); a headless server has none, because its
 * settings are the command-line flags (docs/headless.md).
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { InstanceSettings } from './schema.js';

export type InstanceSettingsStore = {
  read(): Promise<InstanceSettings>;
  write(settings: InstanceSettings): Promise<void>;
};

export const DEFAULT_SETTINGS: InstanceSettings = { port: 4780, whisperThreads: 2 };

/** A JSON file written atomically (temp + rename); a missing or damaged file reads as the defaults. */
export function settingsFile(
  path: string,
  defaults: InstanceSettings = DEFAULT_SETTINGS,
): InstanceSettingsStore {
  return {
    async read() {
      try {
        const parsed = InstanceSettings.safeParse(JSON.parse(await readFile(path, 'utf8')));
        return parsed.success ? parsed.data : defaults;
      } catch {
        return defaults;
      }
    },
    async write(settings) {
      await mkdir(dirname(path), { recursive: true });
      const tmp = `${path}.${process.pid}.tmp`;
      await writeFile(tmp, `${JSON.stringify(InstanceSettings.parse(settings), null, 2)}\n`);
      await rename(tmp, path);
    },
  };
}
