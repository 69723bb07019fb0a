/** Watched folders: the instance owner's, like the other instance settings (docs/transcription.md "Watched folders"). */
import { z } from 'zod';
import { defineRoute } from '../../deps.js';
import { reply } from '../../http/reply.js';
import { AddWatchedFolderBody, WatchedFolder, WatchedFolderList, WatchedFolderParams } from './schema.js';

export const listWatchedFolders = defineRoute({
  method: 'GET',
  path: '/api/v1/watched-folders',
  auth: 'instanceOwner',
  response: WatchedFolderList,
  summary:
    'Folders whose new recordings are imported and transcribed, each with its state and latest failures',
  tag: 'settings',
  handler: (_input, { watchedFolders }) => watchedFolders.list(),
});

export const addWatchedFolder = defineRoute({
  method: 'POST',
  path: '/api/v1/watched-folders',
  auth: 'instanceOwner',
  body: AddWatchedFolderBody,
  response: WatchedFolder,
  status: 201,
  summary: 'Watch a folder: its recordings, those there now and those to come, go to the selected workspace',
  description:
    'The workspace is the one the request acts on (X-Folio-Workspace, else your personal one). Each content is transcribed once: a rename or a copy is not transcribed again. `beside: ["txt","srt"]` writes each completed transcript next to its recording as new files. Only where the desktop app runs the server (409 for a headless server, whose folders are its --watch flags); 400 when the path is not a readable folder, 409 when it is watched already.',
  tag: 'settings',
  handler: ({ workspace, body }, { watchedFolders }) => watchedFolders.add(workspace.id, body),
});

export const removeWatchedFolder = defineRoute({
  method: 'DELETE',
  path: '/api/v1/watched-folders/:folderId',
  auth: 'instanceOwner',
  params: WatchedFolderParams,
  response: z.void(),
  status: 204,
  summary: 'Stop watching a folder; what it imported stays, and its files are left as they are',
  tag: 'settings',
  handler: async ({ params }, { watchedFolders }) => {
    await watchedFolders.remove(params.folderId);
    return reply.empty(204);
  },
});

export const watchedFolderRoutes = { listWatchedFolders, addWatchedFolder, removeWatchedFolder };
