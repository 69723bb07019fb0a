// The MCP client snippets: what --print-mcp-config prints, what the README shows (kept equal here), valid for
// each client's format, pointing at the running server, and never holding a key.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MCP_CLIENTS, mcpClientConfig } from '../../../../server/surfaces/mcp/client-config.js';
import { startTestServer } from '../../../helpers/server.js';

const DEFAULT_URL = 'http://127.0.0.1:4780/mcp';
const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
const run = promisify(execFile);
const printConfig = (args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'server/main.ts', '--print-mcp-config', ...args], {
    encoding: 'utf8',
  });

/** The fenced block after `<!-- mcp-config:<client> -->` in the README. */
function readmeBlock(client: string): string | undefined {
  const match = new RegExp(`<!-- mcp-config:${client} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\\n\`\`\``).exec(readme);
  return match?.[1];
}

describe('MCP client configs', () => {
  it.each(MCP_CLIENTS)('the README shows exactly the %s snippet the generator prints', (client) => {
    expect(readmeBlock(client)).toBe(mcpClientConfig(client, DEFAULT_URL).snippet);
  });

  it.each(MCP_CLIENTS)(
    'the %s snippet is valid for its format, points at /mcp and holds no key',
    (client) => {
      const { snippet } = mcpClientConfig(client, 'http://127.0.0.1:5123/mcp');
      expect(snippet).not.toMatch(/fk_[A-Za-z0-9]/);
      if (client === 'codex') {
        expect(snippet.split('\n')).toEqual([
          '[mcp_servers.folio]',
          'url = "http://127.0.0.1:5123/mcp"',
          'bearer_token_env_var = "FOLIO_KEY"',
        ]);
        return;
      }
      const parsed = JSON.parse(snippet);
      const servers = parsed.mcpServers ?? parsed.servers;
      expect(Object.keys(servers)).toEqual(['folio']);
      const folio = servers.folio;
      if (client === 'claude-desktop') {
        expect(folio.args).toEqual([
          '-y',
          'mcp-remote',
          'http://127.0.0.1:5123/mcp',
          '--header',
          `Authorization:\${FOLIO_AUTH}`,
        ]);
        expect(folio.env.FOLIO_AUTH).toBe('Bearer fk_...');
      } else {
        expect(folio.url).toBe('http://127.0.0.1:5123/mcp');
        expect(folio.headers.Authorization).toMatch(
          /^Bearer \$\{(FOLIO_KEY|env:FOLIO_KEY|input:folio-key)\}$/,
        );
      }
      if (client === 'vscode') expect(parsed.inputs[0]).toMatchObject({ id: 'folio-key', password: true });
    },
  );

  it('--print-mcp-config prints the running server’s address from its server.json, and the default otherwise', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'folio-print-'));
    try {
      const idle = await printConfig(['cursor', '--data-dir', dataDir]);
      expect(idle.stdout).toBe(`${mcpClientConfig('cursor', DEFAULT_URL).snippet}\n`);
      expect(idle.stderr).toMatch(/Folio is not running/);
      const srv = await startTestServer({ dataDir });
      try {
        const live = await printConfig(['vscode', '--data-dir', dataDir]);
        expect(live.stdout).toBe(`${mcpClientConfig('vscode', `${srv.url}/mcp`).snippet}\n`);
        expect(live.stderr).toMatch(/\.vscode\/mcp\.json/);
        expect(live.stderr).not.toMatch(/not running/);
      } finally {
        await srv.close();
      }
      await expect(printConfig(['emacs'])).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringContaining('claude-code|'),
      });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
