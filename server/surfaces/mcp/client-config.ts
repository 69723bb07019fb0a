// Ready-to-paste MCP client configurations (`npm run serve -- --print-mcp-config <client>`, and the README section
// "Add Folio to your agent", which a test keeps equal to these). The key never appears: each client reads it from
// an environment variable or asks for it, the way that client supports.

export const MCP_CLIENTS = ['claude-code', 'claude-desktop', 'cursor', 'vscode', 'codex'] as const;
export type McpClient = (typeof MCP_CLIENTS)[number];

export type ClientConfig = {
  title: string;
  /** Where the snippet goes. */
  where: string;
  /** The snippet itself (a file's content, or a command), exactly as printed on stdout. */
  snippet: string;
  /** How the key reaches the client. */
  key: string;
};

const json = (value: unknown) => JSON.stringify(value, null, 2);
/** `${name}`: a placeholder the client itself expands (from its environment, or by asking). */
const ref = (name: string) => `\${${name}}`;

export function mcpClientConfig(client: McpClient, mcpUrl: string): ClientConfig {
  switch (client) {
    case 'claude-code':
      return {
        title: 'Claude Code',
        where: '.mcp.json in your project (or run: claude mcp add --transport http folio <url> --header ...)',
        snippet: json({
          mcpServers: {
            folio: { type: 'http', url: mcpUrl, headers: { Authorization: `Bearer ${ref('FOLIO_KEY')}` } },
          },
        }),
        key: `export FOLIO_KEY=fk_... before starting claude; Claude Code expands ${ref('FOLIO_KEY')} itself`,
      };
    case 'claude-desktop':
      return {
        title: 'Claude Desktop',
        where:
          'claude_desktop_config.json (~/Library/Application Support/Claude on macOS, %APPDATA%\\Claude on Windows); its local servers are stdio, so mcp-remote bridges to /mcp',
        snippet: json({
          mcpServers: {
            folio: {
              command: 'npx',
              args: ['-y', 'mcp-remote', mcpUrl, '--header', `Authorization:${ref('FOLIO_AUTH')}`],
              env: { FOLIO_AUTH: 'Bearer fk_...' },
            },
          },
        }),
        key: 'replace fk_... in env.FOLIO_AUTH with your key (no space after "Authorization:" in args)',
      };
    case 'cursor':
      return {
        title: 'Cursor',
        where: '~/.cursor/mcp.json (every project) or .cursor/mcp.json (one project)',
        snippet: json({
          mcpServers: {
            folio: { url: mcpUrl, headers: { Authorization: `Bearer ${ref('env:FOLIO_KEY')}` } },
          },
        }),
        key: 'export FOLIO_KEY=fk_... in the environment Cursor starts from',
      };
    case 'vscode':
      return {
        title: 'VS Code',
        where: '.vscode/mcp.json in your workspace (or MCP: Open User Configuration)',
        snippet: json({
          inputs: [{ type: 'promptString', id: 'folio-key', description: 'Folio API key', password: true }],
          servers: {
            folio: {
              type: 'http',
              url: mcpUrl,
              headers: { Authorization: `Bearer ${ref('input:folio-key')}` },
            },
          },
        }),
        key: 'VS Code asks for the key once and keeps it in its secret storage',
      };
    case 'codex':
      return {
        title: 'Codex',
        where: '~/.codex/config.toml',
        snippet: `[mcp_servers.folio]\nurl = "${mcpUrl}"\nbearer_token_env_var = "FOLIO_KEY"`,
        key: 'export FOLIO_KEY=fk_... before starting codex',
      };
  }
}

export const isMcpClient = (name: string): name is McpClient =>
  (MCP_CLIENTS as readonly string[]).includes(name);
