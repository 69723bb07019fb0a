// What the MCP server knows about a tool: its definition for tools/list, the service that gates it, and how
// to call it. Generated ones (route-tools.ts) and hand-written ones (define-tool.ts) look the same from here.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { InvokeDeps } from '../../../http/invoke-route.js';
import type { ServiceName } from '../../../http/viewer.js';

/** One tools/call as the transport hands it over: the caller's key, our origin, cancellation and progress. */
export type ToolCall = {
  bearer: string;
  origin: string;
  signal: AbortSignal;
  /** Sends a progress notification when the client asked for them (a progressToken); otherwise does nothing. */
  progress(progress: number, total?: number, message?: string): void;
  deps: InvokeDeps;
};

export type McpTool = {
  name: string;
  /** The service a key needs; tools without one (account_me, services_list) are open to every key. */
  service?: ServiceName;
  definition: Tool;
  /** Runs the tool through the same authorize step as its route; resolves to what the route answers. */
  call(args: Record<string, unknown>, call: ToolCall): Promise<unknown>;
};

/** Hints for clients that ask before running tools that change things. */
export function annotationsFor(method: string): Tool['annotations'] {
  return {
    readOnlyHint: method === 'GET',
    destructiveHint: method === 'DELETE',
    idempotentHint: method === 'GET' || method === 'PUT' || method === 'DELETE',
    openWorldHint: false,
  };
}
