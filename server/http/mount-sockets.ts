// WebSocket routes go through the same guards as HTTP routes: host guard, authenticate, authorize
// (workspace + service), and for cookie sessions an exact Origin match (cross-site WebSocket hijacking).
// Browsers cannot set headers on a WebSocket, so a grant may come as `?client_secret=`.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import Cookies from 'cookies';
import { match } from 'path-to-regexp';
import { type WebSocket, WebSocketServer } from 'ws';
import type { Logger } from '../log.js';
import { bearerOf, type CredentialResolvers, identify, SESSION_COOKIE } from './authenticate.js';
import { authorize, type WorkspaceDirectory } from './authorize.js';
import { toResponse } from './error-boundary.js';
import { HttpError } from './errors.js';
import { checkHost, type HostPolicy } from './host-guard.js';
import { addressedOrigins } from './origin-check.js';
import type { Credential, ServiceName, Viewer, WorkspaceRef } from './viewer.js';

export type SocketInput = {
  workspace: WorkspaceRef;
  viewer: Viewer;
  params: Record<string, string>;
  query: URLSearchParams;
};

/** A WebSocket route whose handler gets `D` (server/deps.ts binds `socketDefiner` to RouteDeps). */
// biome-ignore lint/suspicious/noExplicitAny: a list that only reads the sockets' fields takes any deps
export type SocketDefinition<D = any> = {
  path: string;
  auth: Credential | Credential[];
  service?: ServiceName;
  grantPurpose?: string;
  summary: string;
  handler: (ws: WebSocket, input: SocketInput, deps: D) => void;
};

/** `defineSocket` for handlers that get `D` as their third argument. */
export const socketDefiner =
  <D>() =>
  (socket: SocketDefinition<D>) =>
    socket;

export type SocketDeps<D = unknown> = {
  resolvers: CredentialResolvers;
  workspaces: WorkspaceDirectory;
  hostPolicy: HostPolicy;
  ownOrigins: () => string[];
  routeDeps: D;
  log: Logger;
};

export function mountSockets<D>(
  http: Server,
  sockets: SocketDefinition<D>[],
  deps: SocketDeps<D>,
): WebSocketServer {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1 << 20 });
  const routes = sockets.map((socket) => ({
    socket,
    match: match(socket.path, { decode: decodeURIComponent }),
  }));
  http.on('upgrade', async (req: IncomingMessage, stream: Duplex, head: Buffer) => {
    // Node hands the raw socket over without its error listener: a client that resets the connection while the
    // upgrade is checked (or answered) must not end the server. ws listens itself once it has the socket.
    const dropOnError = () => stream.destroy();
    stream.on('error', dropOnError);
    let path = 'an unrouted path';
    try {
      checkHost(req, deps.hostPolicy);
      const url = new URL(req.url ?? '/', 'http://placeholder');
      const found = routes.map((r) => ({ ...r, m: r.match(url.pathname) })).find((r) => r.m);
      if (!found?.m) throw new HttpError(404, `Not found: ${url.pathname}`);
      path = found.socket.path;
      const params = found.m.params as Record<string, string>;
      const input = await authorizeUpgrade(req, url, found.socket, params, deps);
      if (stream.destroyed) return;
      stream.off('error', dropOnError);
      wss.handleUpgrade(req, stream, head, (ws) => {
        // A client's bad frame (past maxPayload, unmasked, invalid UTF-8) is emitted on the socket after ws has
        // closed it with the matching code; unheard, that error would end the server.
        ws.on('error', () => undefined);
        found.socket.handler(ws, input, deps.routeDeps);
      });
    } catch (error) {
      if (!stream.destroyed) refuse(stream, toResponse(error, deps.log, `WebSocket ${path}`));
    }
  });
  return wss;
}

async function authorizeUpgrade<D>(
  req: IncomingMessage,
  url: URL,
  socket: SocketDefinition<D>,
  params: Record<string, string>,
  deps: SocketDeps<D>,
): Promise<SocketInput> {
  const bearer = bearerOf(req.headers.authorization) ?? url.searchParams.get('client_secret') ?? undefined;
  const sessionToken = new Cookies(req, undefined as never).get(SESSION_COOKIE);
  const identified = await identify({ bearer, sessionToken }, deps.resolvers);
  const requestedWorkspace = req.headers['x-folio-workspace'] as string | undefined;
  const { viewer, workspace } = await authorize(
    { route: socket, identified, params, requestedWorkspace },
    deps.workspaces,
  );
  if (
    viewer.kind === 'session' &&
    !addressedOrigins(req.headers.host, deps.ownOrigins()).includes(req.headers.origin ?? '')
  )
    throw new HttpError(403, 'Cross-origin WebSocket refused: Origin does not match this server');
  return { workspace: workspace!, viewer, params, query: url.searchParams };
}

function refuse(stream: Duplex, { status, body, headers }: ReturnType<typeof toResponse>): void {
  const json = JSON.stringify(body);
  const extra = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  stream.end(
    `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Error'}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n${extra}\r\n${json}`,
  );
}
