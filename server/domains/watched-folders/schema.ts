/** Watched folders: where they are, which workspace their recordings go to, and what each file became. */
import { isAbsolute } from 'node:path';
import { z } from 'zod';

export const BESIDE_FORMATS = ['txt', 'srt'] as const;
export const BesideFormat = z.enum(BESIDE_FORMATS, 'beside may name txt and srt');
export type BesideFormat = z.infer<typeof BesideFormat>;

const FolderPath = z
  .string()
  .min(1, 'path is required')
  .max(4096)
  .refine(isAbsolute, 'path must be an absolute folder path, such as /Users/ann/Recordings');
const Beside = z
  .array(BesideFormat)
  .max(2)
  .default([])
  .describe('Transcript files written beside each recording once it completes: txt, srt (never over a file)');

/** A folder as the settings file keeps it. */
export const WatchedFolderSetting = z.object({
  path: FolderPath,
  workspaceId: z.string().min(1).max(64),
  beside: Beside,
});
export type WatchedFolderSetting = z.infer<typeof WatchedFolderSetting>;

export const AddWatchedFolderBody = z.object({ path: FolderPath, beside: Beside }).strict();
export type AddWatchedFolderBody = z.infer<typeof AddWatchedFolderBody>;

/** A folder's id is the instance's, not a workspace's: folders belong to the instance owner. */
export const WatchedFolderParams = z.object({ folderId: z.string().min(1).max(64) });

export const WATCH_STATES = ['starting', 'watching', 'waiting', 'unavailable'] as const;

export const WatchedFolderFailure = z.object({
  name: z.string().describe('The file, relative to the folder'),
  error: z.string(),
  transcriptId: z.string().nullable().describe('The failed transcript, when the file got that far'),
  at: z.string(),
});
export type WatchedFolderFailure = z.infer<typeof WatchedFolderFailure>;

export const WatchedFolder = z.object({
  id: z.string(),
  path: z.string(),
  workspaceId: z
    .string()
    .nullable()
    .describe("null while a --watch folder waits for the owner's first sign-in"),
  beside: z.array(BesideFormat),
  origin: z
    .enum(['settings', 'command line'])
    .describe('command line: a --watch flag, removed by restarting without it'),
  state: z
    .enum(WATCH_STATES)
    .describe(
      'watching; starting (first scan); waiting (for the owner to sign in); unavailable (see problem)',
    ),
  problem: z.string().nullable(),
  imported: z.number().int().describe('Recordings imported from this folder so far'),
  pending: z.number().int().describe('Of those, still being transcribed'),
  failures: z.array(WatchedFolderFailure).describe('The latest failures, newest first'),
});
export type WatchedFolder = z.infer<typeof WatchedFolder>;

export const WatchedFolderList = z.object({
  data: z.array(WatchedFolder),
  editable: z.boolean().describe('False for a headless server: its folders are its --watch flags'),
});

/** One recording's content (its SHA-256 is the id), per workspace: what makes each content transcribe once. */
export type WatchedFileRecord = {
  id: string;
  folderId: string;
  /** The file as first seen, relative to its folder. */
  name: string;
  size: number;
  mtimeMs: number;
  status: 'importing' | 'queued' | 'completed' | 'failed';
  transcriptId?: string | null;
  error?: string | null;
  createdAt: string;
  updatedAt: string;
};
