// Who is calling, as the /mcp route authenticated this very HTTP request: the transport hands it to every
// handler as `authInfo`, so each tools/list, tools/call or resources/read sees the key as it is now.
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { toResponse } from '../../http/error-boundary.js';
import type { InvokeDeps } from '../../http/invoke-route.js';
import type { ServiceName, Viewer } from '../../http/viewer.js';
import type { Logger } from '../../log.js';

export type KeyViewer = Extract<Viewer, { kind: 'key' }>;
export type Caller = {
  bearer: string;
  origin: string;
  keyId: string;
  services: ServiceName[];
  /** The key as the /mcp route found it for this very HTTP request. */
  viewer?: KeyViewer;
};

export function authInfoOf(bearer: string, viewer: KeyViewer, origin: string): AuthInfo {
  return { token: bearer, clientId: viewer.keyId, scopes: viewer.services, extra: { origin, viewer } };
}

export function callerOf(extra: { authInfo?: AuthInfo }): Caller {
  const auth = extra.authInfo;
  if (!auth) throw new McpError(ErrorCode.InvalidRequest, 'No credential on this request');
  return {
    bearer: auth.token,
    origin: String(auth.extra?.origin),
    keyId: auth.clientId,
    services: auth.scopes as ServiceName[],
    viewer: auth.extra?.viewer as KeyViewer | undefined,
  };
}

/**
 * The invoke dependencies for one MCP request: the route it runs authenticates the caller's key with the answer the
 * /mcp route got for this same HTTP request, instead of looking the key up a second time. A REST call looks its key
 * up once per request too, so a key revoked or narrowed is refused from the next request on, as there.
 */
export function depsFor(caller: Caller, deps: InvokeDeps): InvokeDeps {
  const { viewer, bearer } = caller;
  if (!viewer) return deps;
  const key = (secret: string) => (secret === bearer ? Promise.resolve(viewer) : deps.resolvers.key(secret));
  return { ...deps, resolvers: { ...deps.resolvers, key } };
}

export const mayUse = (caller: Pick<Caller, 'services'>, service: ServiceName | undefined) =>
  !service || caller.services.includes(service);

/** A route's error as a JSON-RPC error (resources and prompts have no tool-error form): same body, its status. */
export function asMcpError(error: unknown, log: Logger): McpError {
  if (error instanceof McpError) return error;
  const { status, body } = toResponse(error, log, 'an MCP resource or prompt');
  const code =
    status === 404 ? RESOURCE_NOT_FOUND : status < 500 ? ErrorCode.InvalidParams : ErrorCode.InternalError;
  return new McpError(code, body.error, { httpStatus: status, ...body });
}

/** MCP's code for a resource that does not exist (or, as with REST, belongs to another workspace). */
const RESOURCE_NOT_FOUND = -32002;
