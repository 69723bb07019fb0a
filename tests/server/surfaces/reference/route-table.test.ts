// The route table is the one list every surface reads (HTTP, OpenAPI, llms.txt, MCP): a route exported from a
// domain or surface but left out of it would exist in code and nowhere else.
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { namedRoutes } from '../../../../server/surfaces/route-table.js';

const serverDir = fileURLToPath(new URL('../../../../server', import.meta.url));
const routeDirs = ['domains', 'surfaces'].map((dir) => join(serverDir, dir));

async function routeModules(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await routeModules(path)));
    else if (/routes\.tsx?$/.test(entry.name)) found.push(path);
  }
  return found;
}

const isRoute = (value: unknown): value is object =>
  typeof value === 'object' && value !== null && 'handler' in value && 'path' in value && 'method' in value;

describe('route table', () => {
  it('mounts every route a capability exports, once', async () => {
    const mounted = namedRoutes().map((r) => r.route);
    expect(new Set(mounted).size).toBe(mounted.length);
    const missing: string[] = [];
    for (const file of (await Promise.all(routeDirs.map(routeModules))).flat()) {
      const module = (await import(file)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module))
        if (isRoute(value) && !mounted.includes(value as never))
          missing.push(`${relative(serverDir, file)}: ${name}`);
    }
    expect(missing).toEqual([]);
  });

  it('names each MCP tool once, as <capability>_<verb>', () => {
    const tools = namedRoutes().flatMap((r) => ('tool' in r.route && r.route.tool ? [r.route.tool] : []));
    expect(new Set(tools).size).toBe(tools.length);
    for (const tool of tools) expect(tool).toMatch(/^[a-z]+(_[a-z]+)+$/);
  });
});
