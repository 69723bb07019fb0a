/** The MCP SDK's own client over Streamable HTTP against a test server, with a key (or any headers). */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TestServer } from '../../../helpers/server.js';

export async function connect(srv: TestServer, bearer: string, headers: Record<string, string> = {}) {
  const client = new Client({ name: 'folio-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${bearer}`, ...headers } },
  });
  await client.connect(transport);
  // as hosts do: listing first makes the client check every structured result against its tool's output schema
  await client.listTools();
  return client;
}

// biome-ignore lint/suspicious/noExplicitAny: tool results are checked field by field
export type Json = Record<string, any>;

/** Every tool a test called through these helpers, for the checks that each tool is exercised. */
export const called = new Set<string>();

/** Calls a tool and answers its structured result, failing with the tool's error text if it failed. */
export async function callOk(client: Client, name: string, args: Json = {}): Promise<Json> {
  called.add(name);
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return (result.structuredContent ?? {}) as Json;
}

/** The text a tool answered (exports, summaries). */
export async function callText(client: Client, name: string, args: Json = {}): Promise<string> {
  called.add(name);
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

export async function callError(client: Client, name: string, args: Json = {}): Promise<Json> {
  called.add(name);
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (!result.isError) throw new Error(`${name} was expected to fail: ${JSON.stringify(result.content)}`);
  return result.structuredContent as Json;
}
