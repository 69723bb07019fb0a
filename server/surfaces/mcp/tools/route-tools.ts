// Tools generated from the route table: every route with a `tool` name that a key may call. The name, the
// description, the input schema (params, query and body merged) and the output schema (the response) all
// come from the route, and a call runs through invokeRoute, so REST, OpenAPI, llms.txt and MCP cannot drift.
import { credentialsOf, isToolRoute, type ToolRoute } from '../../../http/define-route.js';
import { invokeRoute } from '../../../http/invoke-route.js';
import type { NamedRoute } from '../../capability.js';
import { annotationsFor, type McpTool } from './tool.js';
import { inputSchemaOf, outputSchemaOf, planArguments, splitArguments } from './tool-schemas.js';

/** A tool route a key can call; routes for sessions only (keys get 403 on them) are not tools. */
const isKeyToolRoute = (route: NamedRoute['route']): route is ToolRoute =>
  isToolRoute(route) && credentialsOf(route).includes('key');

export function toolsFromRoutes(routes: NamedRoute[]): McpTool[] {
  return routes.flatMap(({ route }) => (isKeyToolRoute(route) ? [routeTool(route)] : []));
}

export function routeTool(route: ToolRoute): McpTool {
  const { plan, shape } = planArguments(route);
  const outputSchema = outputSchemaOf(route.response);
  return {
    name: route.tool,
    service: route.service,
    definition: {
      name: route.tool,
      title: route.summary,
      description: [route.summary, route.description].filter(Boolean).join('\n\n'),
      inputSchema: inputSchemaOf(shape),
      ...(outputSchema && { outputSchema }),
      annotations: annotationsFor(route.method),
    },
    async call(args, { bearer, origin, deps }) {
      const { params, query, body } = splitArguments(args, plan, route);
      return invokeRoute(
        route,
        { credentials: { bearer }, params, query, readBody: async () => body, origin },
        deps,
      );
    },
  };
}
