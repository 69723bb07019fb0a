// Every MCP tool: one per tool route of the table, then the hand-written ones for work that is more than one
// route call. Names are unique and say their capability (`<capability>_<verb>`).
import type { NamedRoute } from '../../capability.js';
import { toolsFromRoutes } from './route-tools.js';
import type { McpTool } from './tool.js';
import { transcriptsCreate } from './transcribe-tool.js';
import { assetsUpload, chunkedPutPart } from './upload-tools.js';

export const handWrittenTools: McpTool[] = [assetsUpload, transcriptsCreate, chunkedPutPart];

export function buildTools(routes: NamedRoute[]): McpTool[] {
  const tools = [...toolsFromRoutes(routes), ...handWrittenTools];
  const seen = new Set<string>();
  for (const { name } of tools) {
    if (seen.has(name)) throw new Error(`Two MCP tools are named ${name}`);
    seen.add(name);
  }
  return tools;
}
