// The one place that says who may call what (docs/api.md#credentials-and-workspaces). Every route's chain, HTTP or WebSocket,
// passes through `authorize`, which either resolves exactly one workspace or throws.

import type { Identified } from './authenticate.js';
import { type AnyRoute, credentialsOf } from './define-route.js';
import { forbidden, forbiddenService, notFound, unauthorized } from './errors.js';
import type { Viewer, WorkspaceRef } from './viewer.js';

export type WorkspaceDirectory = {
  get(id: string): Promise<WorkspaceRef | undefined>;
  personalOf(userId: string): Promise<WorkspaceRef | undefined>;
};

export type Authorized = { viewer: Viewer; workspace: WorkspaceRef | null };

export type AuthorizeRequest = {
  route: Pick<AnyRoute, 'auth' | 'service' | 'grantPurpose' | 'allowUnapproved'>;
  identified: Identified;
  params: Record<string, string>;
  /** `X-Folio-Workspace`: which of a session user's workspaces the request acts on. */
  requestedWorkspace?: string;
};

export async function authorize(
  request: AuthorizeRequest,
  workspaces: WorkspaceDirectory,
): Promise<Authorized> {
  const { route, identified } = request;
  const { viewer } = identified;
  const allowed = credentialsOf(route);
  if (allowed.includes('public')) return { viewer, workspace: null };
  switch (viewer.kind) {
    case 'public':
      throw unauthorized(identified.problem);
    case 'key':
      if (!allowed.includes('key'))
        throw forbidden('This route needs a signed-in session; API keys cannot call it');
      if (route.service && !viewer.services.includes(route.service))
        throw forbiddenService(route.service, viewer.services);
      return { viewer, workspace: mustExist(await workspaces.get(viewer.workspaceId)) };
    case 'grant':
      if (!allowed.includes('grant') || viewer.grant.purpose !== route.grantPurpose)
        throw forbidden('This grant cannot be used on this route');
      return { viewer, workspace: mustExist(await workspaces.get(viewer.grant.workspaceId)) };
    case 'session':
      return { viewer, workspace: await sessionWorkspace(viewer, allowed, request, workspaces) };
  }
}

async function sessionWorkspace(
  viewer: Extract<Viewer, { kind: 'session' }>,
  allowed: ReturnType<typeof credentialsOf>,
  { route, params, requestedWorkspace }: AuthorizeRequest,
  workspaces: WorkspaceDirectory,
): Promise<WorkspaceRef> {
  const sessionAllowed = allowed.some(
    (c) => c === 'session' || c === 'workspaceOwner' || c === 'instanceOwner',
  );
  if (!sessionAllowed) throw forbidden('This route needs an API key; a session cannot call it');
  if (!viewer.approved || !viewer.userId) {
    if (route.allowUnapproved) return { id: '', name: '', ownerId: '' };
    throw forbidden('Your account is waiting for approval', { isApproved: false });
  }
  if (allowed.includes('instanceOwner') && !viewer.isInstanceOwner)
    throw forbidden('Only the owner of this Folio instance can do this');
  const id = allowed.includes('workspaceOwner') ? params.id : requestedWorkspace;
  const workspace = id ? await workspaces.get(id) : await workspaces.personalOf(viewer.userId);
  // Another user's workspace is indistinguishable from a missing one
  if (!workspace || workspace.ownerId !== viewer.userId) throw notFound('Workspace');
  return workspace;
}

function mustExist(workspace: WorkspaceRef | undefined): WorkspaceRef {
  if (!workspace) throw unauthorized('The workspace of this credential no longer exists');
  return workspace;
}
