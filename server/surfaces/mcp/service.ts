/**
 * The MCP server at /mcp (Streamable HTTP): the catalog of tools, resources and prompts built once from the route
 * table, and one SDK server per session. The /mcp routes have already authenticated the key (a session cookie
 * never reaches here); this adds the Origin check the MCP transport asks for and hands the request to the
 * session's transport.
 */
import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import { bearerOf } from '../../http/authenticate.js';
import { badRequest, forbidden, HttpError, unsupportedMediaType } from '../../http/errors.js';
import type { InvokeDeps } from '../../http/invoke-route.js';
import { readJsonBody } from '../../http/read-json.js';
import { type Reply, reply } from '../../http/reply.js';
import type { Logger } from '../../log.js';
import type { Capability, NamedRoute } from '../capability.js';
import { attachViews } from './apps/views.js';
import { authInfoOf, type KeyViewer } from './caller.js';
import { prompts } from './prompts.js';
import { fixedResources, templateResources } from './resources.js';
import { createSessionServer, type McpCatalog } from './session-server.js';
import { SessionTransport } from './session-transport.js';
import { createSessionRegistry, type Session } from './sessions.js';
import { buildTools } from './tools/index.js';

export type McpOptions = {
  /** Idle sessions are closed after this long (default 30 minutes). */
  idleMs: number;
  /** At most this many sessions at once; past it the least recently used is closed (default 1000). */
  maxSessions: number;
  /** Largest JSON-RPC message read (base64 uploads travel inside one; default 16 MiB). */
  bodyBytes: number;
};

export type McpServiceDeps = {
  routes: NamedRoute[];
  capabilities: Capability[];
  version: string;
  /** Where the sessions' sweeper and the sessions themselves are stopped when the server closes. */
  lifecycle: { onClose(stop: () => Promise<void>): void };
  /** The invoke dependencies, read on first use (they include the deps this service belongs to). */
  invoke: () => InvokeDeps;
  log: Logger;
  options?: Partial<McpOptions>;
};

export function createMcpService(deps: McpServiceDeps) {
  const { idleMs, maxSessions, bodyBytes } = {
    idleMs: 30 * 60_000,
    maxSessions: 1000,
    bodyBytes: 16 << 20,
    ...deps.options,
  };
  const { log } = deps;
  // Built at the first session, not at start: the tools' JSON Schemas are most of a start's 100 ms here.
  let built: McpCatalog | undefined;
  const catalog = (): McpCatalog => {
    if (built) return built;
    const tools = buildTools(deps.routes);
    built = {
      tools,
      definitions: new Map(tools.map((t) => [t.name, t.definition])),
      fixed: fixedResources(deps.capabilities, deps.routes, tools),
      templates: templateResources(tools, deps.routes),
      prompts,
    };
    attachViews(built);
    return built;
  };
  const sessions = createSessionRegistry({ idleMs, max: maxSessions });
  const sweeper = setInterval(() => void sessions.sweep(), Math.min(idleMs, 60_000));
  sweeper.unref();
  deps.lifecycle.onClose(async () => {
    clearInterval(sweeper);
    await sessions.closeAll();
  });

  /** Opens a session for `viewer` with this initialize request; the session's transport answers it. */
  async function open(viewer: KeyViewer, ctx: Context, body: unknown): Promise<void> {
    if (body === undefined) throw unsupportedMediaType('Send MCP messages as application/json');
    if (methodOf(body) !== 'initialize')
      throw badRequest('Send the Mcp-Session-Id header this server gave at initialize, or initialize first');
    const server = createSessionServer(catalog(), viewer, {
      deps: deps.invoke(),
      log,
      version: deps.version,
    });
    const transport = new SessionTransport(randomUUID(), bodyBytes);
    const session: Session = {
      id: transport.sessionId,
      keyId: viewer.keyId,
      server,
      transport,
      lastSeen: 0,
      active: 0,
    };
    transport.onclose = () => sessions.forget(session.id);
    await server.connect(transport);
    sessions.add(session);
    await sessions.using(session, () => transport.handleRequest(ctx.req, ctx.res, body));
    if (ctx.res.statusCode !== 200) await server.close(); // a refused initialize leaves no session behind
  }

  /** One HTTP request to /mcp from an authenticated key. */
  async function handle(ctx: Context, viewer: KeyViewer, origin: string): Promise<Reply> {
    const sent = ctx.get('origin');
    if (sent && sent !== origin)
      throw forbidden('Cross-origin request refused: /mcp accepts no Origin but this server’s own');
    const bearer = bearerOf(ctx.get('authorization')) ?? '';
    Object.assign(ctx.req, { auth: authInfoOf(bearer, viewer, origin) });
    const id = ctx.get('mcp-session-id');
    const session = id ? sessions.find(id, viewer.keyId) : undefined;
    if (id && !session) throw new HttpError(404, 'MCP session not found: start a new one with initialize');
    // Read like every JSON body (strict UTF-8, the size limit, no prototype keys); anything but JSON is left to
    // the transport to refuse. One message per request, as the current MCP revision has it: a batch would turn
    // one request through the rate limit into any number of tool calls.
    const body =
      ctx.method === 'POST' && ctx.is('application/json')
        ? await readJsonBody(ctx.req, ctx.request.charset, bodyBytes)
        : undefined;
    if (Array.isArray(body) && body.length !== 1)
      throw badRequest('Send one JSON-RPC message per request: batches are not accepted');
    if (session && methodOf(body) === 'initialize')
      throw badRequest(
        'This session is already initialized: initialize opens a new one without Mcp-Session-Id',
      );
    if (session) await sessions.using(session, () => session.transport.handleRequest(ctx.req, ctx.res, body));
    else if (ctx.method === 'POST') await open(viewer, ctx, body);
    else throw new HttpError(400, 'Send the Mcp-Session-Id header this server gave at initialize');
    return reply.handled();
  }

  return { handle, catalog, sessions };
}

/** The JSON-RPC method of the one message in `body` (a batch of one counts as that message). */
const methodOf = (body: unknown): unknown =>
  (Array.isArray(body) ? body[0] : (body as { method?: unknown } | undefined))?.method;

export type McpService = ReturnType<typeof createMcpService>;
