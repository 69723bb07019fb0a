// `npm run serve -- --print-mcp-config <client>`: prints a client's MCP config for this instance and exits. The URL
// comes from the running server's discovery file when there is one, else from --port and --host.
import { type Config, DEFAULT_PORT } from '../../config.js';
import { isMcpClient, MCP_CLIENTS, mcpClientConfig } from './client-config.js';
import { discoveryPath, readDiscovery } from './discovery.js';

const FLAG = '--print-mcp-config';

/** The client named after the flag (`--print-mcp-config cursor` or `=cursor`) and the other arguments. */
export function takePrintRequest(argv: string[]): { client: string; rest: string[] } | undefined {
  const at = argv.findIndex((arg) => arg === FLAG || arg.startsWith(`${FLAG}=`));
  if (at < 0) return undefined;
  const inline = argv[at].includes('=') ? argv[at].slice(FLAG.length + 1) : undefined;
  const client = inline ?? argv[at + 1] ?? '';
  const rest = [...argv.slice(0, at), ...argv.slice(at + (inline === undefined ? 2 : 1))];
  return { client, rest };
}

type Out = { write(text: string): unknown };

/** The snippet on `out` (so it can be redirected into a file), where it goes and the key on `err`. */
export async function printMcpConfig(client: string, config: Config, out: Out, err: Out): Promise<number> {
  if (!isMcpClient(client)) {
    err.write(`Name a client: ${FLAG} <${MCP_CLIENTS.join('|')}>\n`);
    return 2;
  }
  const found = await readDiscovery(config.dataDir);
  const running = found && !found.stale;
  const mcpUrl = running
    ? found.discovery.mcp
    : `http://${hostOf(config.host)}:${config.port || DEFAULT_PORT}/mcp`;
  const { title, where, snippet, key } = mcpClientConfig(client, mcpUrl);
  err.write(`# ${title}: put this in ${where}\n# Key: ${key}\n`);
  if (!running)
    err.write(
      `# Folio is not running (${found ? 'stale' : 'no'} ${discoveryPath(config.dataDir)}): the URL assumes it will listen on ${mcpUrl}\n`,
    );
  out.write(`${snippet}\n`);
  return 0;
}

function hostOf(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
