/**
 * The desktop shell's own settings (window, login item, notifications), in `shell.json` beside the
 * instance settings (`settings.json`, read and written by the server's settings store). Damaged or
 * missing files read as the defaults; writes are atomic.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';

export const WindowState = z.object({
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  width: z.number().int().min(640).max(10_000),
  height: z.number().int().min(480).max(10_000),
  maximized: z.boolean(),
});
export type WindowState = z.infer<typeof WindowState>;

export const ShellSettings = z.object({
  window: WindowState.default({ width: 1280, height: 820, maximized: false }),
  startAtLogin: z.boolean().default(false),
  /** Notify when a transcription of at least this many seconds of audio finishes while the window is not focused. */
  notifyLongTranscriptions: z.boolean().default(true),
  longTranscriptionSeconds: z.number().int().min(0).max(86_400).default(120),
});
export type ShellSettings = z.infer<typeof ShellSettings>;

export const defaultShellSettings = (): ShellSettings => ShellSettings.parse({});

/** Parses what was on disk, keeping every valid field and defaulting the rest. */
export function parseShellSettings(raw: unknown): ShellSettings {
  const input = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const fields = Object.fromEntries(
    Object.entries(ShellSettings.shape).flatMap(([name, schema]) => {
      const parsed = schema.safeParse(input[name]);
      return parsed.success ? [[name, parsed.data]] : [];
    }),
  );
  return ShellSettings.parse(fields);
}

export async function readShellSettings(path: string): Promise<ShellSettings> {
  try {
    return parseShellSettings(JSON.parse(await readFile(path, 'utf8')));
  } catch {
    return defaultShellSettings();
  }
}

export async function writeShellSettings(path: string, settings: ShellSettings): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(ShellSettings.parse(settings), null, 2)}\n`);
  await rename(tmp, path);
}
