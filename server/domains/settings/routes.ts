/** Instance settings for the owner: what runs now, what the desktop app starts with next time. */
import { access, constants, mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { defineRoute, type RouteDeps } from '../../deps.js';
import { badRequest, conflict } from '../../http/errors.js';
import { type InstanceSettings, SettingsView, UpdateSettingsBody } from './schema.js';

async function view(origin: string, { config, host, engine }: RouteDeps, saved?: InstanceSettings) {
  const stored = saved ?? (await host.instanceSettings?.read()) ?? null;
  const running = {
    url: origin,
    port: Number(new URL(origin).port || 80),
    host: config.host,
    dataDir: config.dataDir,
    whisperThreads: config.whisperThreads,
    whisperDevice: engine.devicePreference(),
    whisperModel: config.whisperModel ?? null,
    logFile: host.logFile?.() ?? null,
  };
  const restartRequired = Boolean(
    stored &&
      (stored.port !== running.port ||
        (stored.dataDir !== undefined && stored.dataDir !== running.dataDir) ||
        stored.whisperThreads !== running.whisperThreads),
  );
  return {
    running,
    saved: stored,
    editable: Boolean(host.instanceSettings),
    restartRequired,
    sync: { available: false, target: null },
  };
}

export const getSettings = defineRoute({
  method: 'GET',
  path: '/api/v1/settings',
  auth: 'instanceOwner',
  response: SettingsView,
  summary: 'Instance settings: what runs now and what the desktop app starts with next (instance owner only)',
  tag: 'settings',
  handler: ({ origin }, deps) => view(origin, deps),
});

export const updateSettings = defineRoute({
  method: 'PATCH',
  path: '/api/v1/settings',
  auth: 'instanceOwner',
  body: UpdateSettingsBody,
  response: SettingsView,
  summary:
    'Change the port, data folder or Whisper threads (on the next start) or the Whisper device (at once); instance owner only',
  description:
    'Only where the desktop app runs the server (409 for a headless server, whose settings are its flags: --whisper-device for the device). A data folder must be writable. A new whisperDevice applies at once: the Whisper worker finishes the job it is running, then restarts on the chosen device (GET /api/v1/models shows it once loaded).',
  tag: 'settings',
  handler: async ({ origin, body }, deps) => {
    const store = deps.host.instanceSettings;
    if (!store)
      throw conflict(
        'This server was started from the command line: change --port, --data-dir, --whisper-threads or --whisper-device instead',
      );
    if (body.dataDir) await assertWritable(body.dataDir);
    const next = { ...(await store.read()), ...body };
    await store.write(next);
    if (body.whisperDevice) deps.engine.setDevicePreference(body.whisperDevice);
    return view(origin, deps, next);
  },
});

/** Creates the folder one level at a time (a recursive mkdir never returns on some virtual file systems). */
async function assertWritable(dir: string): Promise<void> {
  const missing: string[] = [];
  let existing = dir;
  while (!(await stat(existing).catch(() => undefined))) {
    missing.unshift(existing);
    existing = dirname(existing);
  }
  try {
    for (const level of missing) await mkdir(level);
    if (!(await stat(dir)).isDirectory()) throw new Error('not a folder');
    await access(dir, constants.W_OK);
  } catch {
    throw badRequest(`dataDir ${dir} cannot be created or written`, {
      issues: [{ path: 'dataDir', message: 'not writable' }],
    });
  }
}

export const settingsRoutes = { getSettings, updateSettings };
