// The discovery file (docs/agents.md): while the server runs, `server.json` in its data folder tells local agents
// and tools where it listens and how to get a key. It never holds a secret. It is removed on a clean shutdown; after
// a crash it stays behind, and readers know it is stale because its pid is no longer running.
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const DISCOVERY_FILE = 'server.json';

export type Discovery = {
  name: 'Folio';
  version: string;
  pid: number;
  startedAt: string;
  url: string;
  mcp: string;
  openapi: string;
  llms: string;
  llmsFull: string;
  /** How to get an API key: never a key itself. */
  keys: string;
};

export const discoveryPath = (dataDir: string) => join(dataDir, DISCOVERY_FILE);

export function discoveryFor(url: string, version: string, pid = process.pid): Discovery {
  const base = url.replace(/\/$/, '');
  return {
    name: 'Folio',
    version,
    pid,
    startedAt: new Date().toISOString(),
    url: base,
    mcp: `${base}/mcp`,
    openapi: `${base}/api/v1/openapi.json`,
    llms: `${base}/llms.txt`,
    llmsFull: `${base}/llms-full.txt`,
    keys: `Ask the owner for an API key: they create one in the dashboard (${base}/, API keys) choosing its services. Send it as "Authorization: Bearer <key>"; MCP clients put it in their server config.`,
  };
}

/** Written whole or not at all (a temp file renamed over it), readable by other local tools. */
export async function writeDiscovery(dataDir: string, discovery: Discovery): Promise<void> {
  const path = discoveryPath(dataDir);
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(discovery, null, 2)}\n`, { mode: 0o644 });
  await rename(tmp, path);
}

/** Removes the file if it is this process's (another server may have taken the folder over since). */
export async function removeDiscovery(dataDir: string, pid = process.pid): Promise<void> {
  const found = await readDiscovery(dataDir);
  if (found?.discovery.pid === pid) await rm(discoveryPath(dataDir), { force: true });
}

/** The discovery file, if any, and whether it is stale (its process is gone). */
export async function readDiscovery(dataDir: string) {
  let discovery: Discovery;
  try {
    discovery = JSON.parse(await readFile(discoveryPath(dataDir), 'utf8')) as Discovery;
  } catch {
    return undefined;
  }
  return { discovery, stale: !isRunning(discovery.pid) };
}

function isRunning(pid: unknown): boolean {
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, owned by someone else
  }
}
