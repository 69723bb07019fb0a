/** /mcp (docs/agents.md, "MCP"): Streamable HTTP for MCP clients, API keys only. A session cookie gets 403. */

import { defineRawRoute } from '../../deps.js';
import type { Method } from '../../http/define-route.js';

const endpoint = (method: Method, summary: string) =>
  defineRawRoute({
    method,
    path: '/mcp',
    auth: 'key',
    hidden: true,
    summary,
    handler: ({ viewer, origin, ctx }, { mcp }) => mcp.handle(ctx, viewer, origin),
  });

export const mcpMessage = endpoint('POST', 'Send an MCP message (initialize opens a session)');
export const mcpStream = endpoint('GET', 'Open the session’s stream of server messages (SSE)');
export const mcpEndSession = endpoint('DELETE', 'End an MCP session');

export const mcpRoutes = { mcpMessage, mcpStream, mcpEndSession };
