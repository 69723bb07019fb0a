// One route call, whatever the transport: authenticate → authorize (one workspace, the key's services) →
// admit (the transport's own checks: Origin for cookie writes, rate limits) → validate → handler. HTTP
// (mount-routes.ts) and MCP both call it, so a tool answers exactly what its route answers, errors included.
import type { Context } from 'koa';
import { type CredentialResolvers, identify, type Presented } from './authenticate.js';
import { type Authorized, authorize, type WorkspaceDirectory } from './authorize.js';
import type { AnyRoute } from './define-route.js';

/** What a call needs: who is calling, their workspaces, and `routeDeps`, handed to the handler as it is. */
export type InvokeDeps<D = unknown> = {
  resolvers: CredentialResolvers;
  workspaces: WorkspaceDirectory;
  routeDeps: D;
};

export type RouteCall = {
  credentials: Presented;
  params: Record<string, string>;
  query: unknown;
  /** Reads the JSON body; called only for routes that declare one, after the caller is admitted. */
  readBody: () => Promise<unknown>;
  /** `X-Folio-Workspace`: which of a session user's workspaces the call acts on. */
  requestedWorkspace?: string;
  origin: string;
  /** `Idempotency-Key`: lets a route answer a retried request as it answered the first. */
  idempotencyKey?: string;
  /** Checks the transport adds once the caller is known; throws to refuse. */
  admit?: (authorized: Authorized) => void | Promise<void>;
  /** Koa's context, for raw routes only. */
  ctx?: Context;
};

export async function invokeRoute<D>(
  route: AnyRoute<D>,
  call: RouteCall,
  deps: InvokeDeps<D>,
): Promise<unknown> {
  const identified = await identify(call.credentials, deps.resolvers);
  const authorized = await authorize(
    { route, identified, params: call.params, requestedWorkspace: call.requestedWorkspace },
    deps.workspaces,
  );
  await call.admit?.(authorized);
  const params = route.params ? route.params.parse(call.params) : call.params;
  const query = route.query ? route.query.parse(call.query ?? {}) : undefined;
  const body = !route.raw && route.body ? route.body.parse(await call.readBody()) : undefined;
  const { viewer, workspace } = authorized;
  const { origin, idempotencyKey } = call;
  if (!route.raw)
    return route.handler({ viewer, workspace, params, query, body, origin, idempotencyKey }, deps.routeDeps);
  if (!call.ctx) throw new Error(`${route.method} ${route.path} reads the raw request: call it over HTTP`);
  return route.handler(
    { viewer, workspace, params, query, body, origin, idempotencyKey, ctx: call.ctx },
    deps.routeDeps,
  );
}
