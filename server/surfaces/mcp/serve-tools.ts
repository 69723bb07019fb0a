// tools/list and tools/call on one session's server. The list is worked out per request from the key's services
// as they are now; a call to a tool outside them still runs, and its route's authorize step answers the 403
// naming the service, as REST does.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { InvokeDeps } from '../../http/invoke-route.js';
import type { Logger } from '../../log.js';
import { callerOf, depsFor, mayUse } from './caller.js';
import type { McpTool } from './tools/tool.js';
import { toolError, toolResult } from './tools/tool-results.js';

export type ToolServing = {
  tools: McpTool[];
  /** Definitions as listed, with anything added for this server (MCP Apps views). */
  definitions: Map<string, Tool>;
  deps: InvokeDeps;
  log: Logger;
};

export function serveTools(server: Server, { tools, definitions, deps, log }: ToolServing): void {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  server.registerCapabilities({ tools: { listChanged: false } });

  server.setRequestHandler(ListToolsRequestSchema, (_request, extra) => {
    const caller = callerOf(extra);
    const listed = tools.filter((tool) => mayUse(caller, tool.service));
    return { tools: listed.map((tool) => definitions.get(tool.name) ?? tool.definition) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const caller = callerOf(extra);
    const { bearer, origin } = caller;
    const token = request.params._meta?.progressToken;
    const progress = (value: number, total?: number, message?: string) => {
      if (token === undefined) return;
      const params = { progressToken: token, progress: value, total, message };
      extra.sendNotification({ method: 'notifications/progress', params }).catch(() => undefined);
    };
    try {
      const args = request.params.arguments ?? {};
      const call = { bearer, origin, signal: extra.signal, progress, deps: depsFor(caller, deps) };
      const result = await tool.call(args, call);
      return await toolResult(tool.name, result);
    } catch (error) {
      return toolError(error, log, tool.name);
    }
  });
}
