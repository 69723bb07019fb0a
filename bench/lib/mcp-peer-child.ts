// The MCP floor for bench/mcp.ts: the SDK's own McpServer and StreamableHTTPServerTransport on bare node:http, one
// session per client as Folio does, and one tool answering a fixed JSON list the size of Folio's answer. No auth,
// no storage. `node --import tsx bench/lib/mcp-peer-child.ts <answer.json>`; prints { url }.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

const answer = JSON.parse(readFileSync(process.argv[2], 'utf8')) as Record<string, unknown>;
const transports = new Map<string, StreamableHTTPServerTransport>();

function newSession(): StreamableHTTPServerTransport {
  const server = new McpServer({ name: 'peer', version: '1.0.0' });
  server.registerTool('assets_list', { description: 'A fixed list' }, async () => ({
    content: [{ type: 'text', text: JSON.stringify(answer) }],
    structuredContent: answer,
  }));
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: randomUUID,
    onsessioninitialized: (id) => void transports.set(id, transport),
  });
  void server.connect(transport);
  return transport;
}

const http = createServer(async (req, res) => {
  const id = req.headers['mcp-session-id'];
  const transport = typeof id === 'string' ? transports.get(id) : newSession();
  if (!transport) {
    res.writeHead(404).end();
    return;
  }
  await transport.handleRequest(req, res);
});
http.listen(0, '127.0.0.1', () =>
  console.log(JSON.stringify({ url: `http://127.0.0.1:${(http.address() as AddressInfo).port}` })),
);
process.once('SIGTERM', () => process.exit(0));
// `gc` on stdin: collect garbage, then print this process's memory (bench/mcp.ts reads it after each step)
process.stdin.setEncoding('utf8').on('data', () => {
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  console.log(JSON.stringify({ rss, heapUsed }));
});
