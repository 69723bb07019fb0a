/** Instance settings (port, data folder, Whisper threads and device; sync when it lands): what the owner changes. */
import { isAbsolute } from 'node:path';
import { z } from 'zod';
import { TranscriptionOptionFields } from '../transcripts/schema.js';
import { WatchedFolderSetting } from '../watched-folders/schema.js';

export const InstanceSettings = z.object({
  port: z
    .number()
    .int()
    .min(1024, 'port must be between 1024 and 65535')
    .max(65535, 'port must be between 1024 and 65535'),
  dataDir: z.string().min(1).max(4096).refine(isAbsolute, 'dataDir must be an absolute path').optional(),
  whisperThreads: z
    .number()
    .int()
    .min(1, 'whisperThreads must be between 1 and 64')
    .max(64, 'whisperThreads must be between 1 and 64'),
  whisperDevice: z
    .enum(['auto', 'cpu', 'gpu'], 'whisperDevice must be auto, cpu or gpu')
    .optional()
    .describe('Where Whisper runs: auto (a GPU when one works), cpu or gpu; applies at once'),
  watchedFolders: z
    .array(WatchedFolderSetting)
    .optional()
    .describe('Changed through /api/v1/watched-folders, which starts and stops their watchers'),
  transcription: z
    .object({
      vad: TranscriptionOptionFields.vad,
      vadThreshold: TranscriptionOptionFields.vadThreshold,
      vadMinSilenceMs: TranscriptionOptionFields.vadMinSilenceMs,
      noSpeechThreshold: TranscriptionOptionFields.noSpeechThreshold,
      temperatureIncrement: TranscriptionOptionFields.temperatureIncrement,
    })
    .strict()
    .optional()
    .describe(
      'Defaults for new transcripts where a request does not say (VAD on or off, its threshold, guards); at once',
    ),
});
export type InstanceSettings = z.infer<typeof InstanceSettings>;

export const UpdateSettingsBody = InstanceSettings.omit({ watchedFolders: true })
  .partial()
  .strict()
  .refine(
    (b) => Object.keys(b).length > 0,
    'send port, dataDir, whisperThreads, whisperDevice and/or transcription',
  );
export type UpdateSettingsBody = z.infer<typeof UpdateSettingsBody>;

export const SettingsView = z.object({
  running: z.object({
    url: z.string(),
    port: z.number(),
    host: z.string(),
    dataDir: z.string(),
    whisperThreads: z.number(),
    whisperDevice: z.enum(['auto', 'cpu', 'gpu']).describe('The device preference in effect now'),
    whisperModel: z.string().nullable(),
    logFile: z
      .string()
      .nullable()
      .describe("The desktop app's log file being written now (it rotates); null for a headless server"),
  }),
  saved: InstanceSettings.nullable().describe(
    'What the app starts with next time; null when started from the command line',
  ),
  editable: z.boolean().describe('False for a headless server: its settings are the command-line flags'),
  restartRequired: z.boolean(),
  sync: z.object({
    available: z.boolean(),
    target: z.string().nullable().describe('The hosted instance this one syncs to, when sync lands'),
  }),
});
export type SettingsView = z.infer<typeof SettingsView>;
