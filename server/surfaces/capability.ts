// What the route table (route-table.ts) is made of, apart from the routes themselves: the surfaces that read the
// table (MCP, the reference) import these types, and are handed the table by the composition root.
import type { AnyRoute } from '../http/define-route.js';
import type { SocketDefinition } from '../http/mount-sockets.js';

export type Capability = {
  name: string;
  title: string;
  /** A paragraph for /llms.txt. */
  summary?: string;
  /** Protocol notes for /llms-full.txt (event formats, URL grammars). */
  docs?: string;
  /** The capability's routes by name, in the order they mount; the names become OpenAPI operationIds. */
  routes: Record<string, AnyRoute>;
  /** WebSocket routes, behind the same credentials and services as HTTP routes. */
  sockets?: SocketDefinition[];
};

export type NamedRoute = { name: string; capability: string; route: AnyRoute };
