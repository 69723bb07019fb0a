import { z } from 'zod';
import { defineRoute } from '../../deps.js';
import {
  CreateWorkspaceBody,
  RenameWorkspaceBody,
  Workspace,
  WorkspaceIdParams,
  WorkspaceWithUsage,
} from './schema.js';

export const listWorkspaces = defineRoute({
  method: 'GET',
  path: '/api/v1/workspaces',
  auth: 'session',
  response: z.object({ data: z.array(WorkspaceWithUsage) }),
  summary: 'List your workspaces with usage (count and bytes per capability)',
  description:
    'Send `X-Folio-Workspace: <id>` on other session requests to act on a workspace other than your personal one.',
  handler: async ({ workspace }, { workspaces }) => ({ data: await workspaces.listOwned(workspace.ownerId) }),
});

export const createWorkspace = defineRoute({
  method: 'POST',
  path: '/api/v1/workspaces',
  auth: 'session',
  body: CreateWorkspaceBody,
  response: Workspace,
  status: 201,
  summary: 'Create a workspace',
  handler: ({ workspace, body }, { workspaces }) => workspaces.create(workspace.ownerId, body.name),
});

export const renameWorkspace = defineRoute({
  method: 'PATCH',
  path: '/api/v1/workspaces/:id',
  auth: 'workspaceOwner',
  params: WorkspaceIdParams,
  body: RenameWorkspaceBody,
  response: Workspace,
  summary: 'Rename a workspace (its owner only)',
  handler: ({ params, body }, { workspaces }) => workspaces.rename(params.id, body.name),
});

export const deleteWorkspace = defineRoute({
  method: 'DELETE',
  path: '/api/v1/workspaces/:id',
  auth: 'workspaceOwner',
  params: WorkspaceIdParams,
  summary: 'Delete a workspace with all its content, files and API keys (its owner only)',
  handler: async ({ params }, { workspaces }) => {
    await workspaces.remove(params.id);
  },
});

export const workspaceRoutes = { listWorkspaces, createWorkspace, renameWorkspace, deleteWorkspace };
