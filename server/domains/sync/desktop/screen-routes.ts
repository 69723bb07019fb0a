/** The desktop's sync screen: settings, status, run now, conflicts (session only: the owner manages sync). */

import { defineRoute } from '../../../deps.js';
import {
  Conflict,
  ConflictList,
  ConflictListQuery,
  ConflictParams,
  ResolveBody,
  RunSyncBody,
  SyncSettings,
  SyncSettingsBody,
  SyncStatus,
} from './screen-schema.js';

const who = { auth: 'session' as const, tag: 'sync' };

export const getSyncSettings = defineRoute({
  method: 'GET',
  path: '/api/v1/sync/settings',
  ...who,
  response: SyncSettings,
  tool: 'sync_settings_get',
  summary: 'This workspace’s sync settings: hosted URL, key prefix (never the key), opt-in, interval',
  handler: ({ workspace }, { sync }) => sync.desktop.settings(workspace.id),
});

export const putSyncSettings = defineRoute({
  method: 'PUT',
  path: '/api/v1/sync/settings',
  ...who,
  body: SyncSettingsBody,
  response: SyncSettings,
  tool: 'sync_settings_set',
  summary: 'Set the hosted Folio and a key from it (checked against it first), opt in or out, the interval',
  handler: ({ workspace, body }, { sync }) => sync.desktop.saveSettings(workspace.id, body),
});

export const deleteSyncSettings = defineRoute({
  method: 'DELETE',
  path: '/api/v1/sync/settings',
  ...who,
  response: SyncSettings,
  tool: 'sync_settings_clear',
  summary: 'Stop syncing this workspace and forget its key; what was synced stays on both sides',
  handler: ({ workspace }, { sync }) => sync.desktop.clearSettings(workspace.id),
});

export const getSyncStatus = defineRoute({
  method: 'GET',
  path: '/api/v1/sync/status',
  ...who,
  response: SyncStatus,
  tool: 'sync_status',
  summary:
    'Sync state, progress per phase of a run under way, the last run (counts, item errors, what was skipped and why)',
  handler: ({ workspace }, { sync }) => sync.desktop.status(workspace.id),
});

export const runSyncNow = defineRoute({
  method: 'POST',
  path: '/api/v1/sync/run',
  ...who,
  body: RunSyncBody,
  response: SyncStatus,
  status: 202,
  tool: 'sync_run',
  summary: 'Sync now (after the run under way, if any); follow it with GET /api/v1/sync/status',
  handler: async ({ workspace, body }, { sync }) => {
    await sync.desktop.start(workspace.id, body);
    return sync.desktop.status(workspace.id);
  },
});

export const listSyncConflicts = defineRoute({
  method: 'GET',
  path: '/api/v1/sync/conflicts',
  ...who,
  query: ConflictListQuery,
  response: ConflictList,
  tool: 'sync_conflicts_list',
  summary: 'Conflict copies: records edited here and on the hosted side, the hosted version having won',
  handler: async ({ workspace, query }, { sync }) => ({
    data: await sync.desktop.conflicts.list(workspace.id, query.status),
  }),
});

export const getSyncConflict = defineRoute({
  method: 'GET',
  path: '/api/v1/sync/conflicts/:id',
  ...who,
  params: ConflictParams,
  response: Conflict,
  tool: 'sync_conflicts_get',
  summary: 'One conflict: the winning version and the kept copy, whole',
  handler: ({ workspace, params }, { sync }) => sync.desktop.conflicts.get(workspace.id, params.id),
});

export const resolveSyncConflict = defineRoute({
  method: 'POST',
  path: '/api/v1/sync/conflicts/:id/resolve',
  ...who,
  params: ConflictParams,
  body: ResolveBody,
  response: Conflict,
  tool: 'sync_conflicts_resolve',
  summary: 'Keep the winner, or put the copy back as this machine’s version (the next sync pushes it)',
  handler: ({ workspace, params, body }, { sync }) =>
    sync.desktop.conflicts.resolve(workspace.id, params.id, body.keep),
});

export const syncLocalRoutes = {
  getSyncSettings,
  putSyncSettings,
  deleteSyncSettings,
  getSyncStatus,
  runSyncNow,
  listSyncConflicts,
  getSyncConflict,
  resolveSyncConflict,
};
