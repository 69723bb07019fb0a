// What bench/mcp.ts reports as the MCP surface's construction costs: building the tool list (each route's zod
// schemas turned into JSON Schema) once per process, one session's McpServer (at initialize), and the SDK transport
// each HTTP request now gets. Plain objects, no HTTP: `node --import tsx bench/lib/mcp-build-costs.ts`.
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { InvokeDeps } from '../../server/http/invoke-route.js';
import { silentLogger } from '../../server/log.js';
import { createMcpService } from '../../server/surfaces/mcp/service.js';
import { createSessionServer } from '../../server/surfaces/mcp/session-server.js';
import { capabilities, namedRoutes } from '../../server/surfaces/route-table.js';

const time = (n: number, work: () => unknown) => {
  for (let i = 0; i < Math.min(n, 50); i++) work(); // warm-up
  const t = performance.now();
  for (let i = 0; i < n; i++) work();
  return ((performance.now() - t) / n) * 1000; // µs each
};
const routes = namedRoutes();
const lifecycle = { onClose: () => undefined };
const invoke = () => ({}) as InvokeDeps;
const build = () =>
  createMcpService({ routes, capabilities, version: 'bench', lifecycle, invoke, log: silentLogger });
const service = build();
const viewer = { kind: 'key' as const, keyId: 'k', workspaceId: 'w', services: ['assets' as const] };
const costs = {
  toolsInProcess: service.catalog().tools.length,
  catalogUs: time(20, () => build().catalog()),
  sessionServerUs: time(300, () =>
    createSessionServer(service.catalog(), viewer, { deps: invoke(), log: console, version: 'bench' }),
  ),
  requestTransportUs: time(3000, () => new StreamableHTTPServerTransport({ enableJsonResponse: true })),
};
console.log(JSON.stringify(costs));
process.exit(0);
