// The command lines of `npm run serve` (server/main.ts) and `npm start` (scripts/start.ts, which hands its flags to
// the headless server): the server's flags from config.ts plus --print-mcp-config.

import { serveFlags } from '../config.js';
import { MCP_CLIENTS } from '../surfaces/mcp/client-config.js';
import type { CommandLine } from './command-line.js';

const flags = {
  ...serveFlags,
  'print-mcp-config': {
    type: 'string',
    value: '<client>',
    help: `Print the MCP config for ${MCP_CLIENTS.join('|')} and exit`,
  },
} as const;

const environment =
  'Each flag has its FOLIO_* twin; a hosted instance takes FOLIO_DATABASE_URL, FOLIO_S3_* and the rest from the\nenvironment only (docs/headless.md, docs/hosted.md).';

export const serveCommand: CommandLine<typeof flags> = {
  usage: ['npm run serve -- [options]'],
  about: `Starts Folio without Electron and prints "Folio listening on <url>" and the owner's sign-in link.\n${environment}`,
  flags,
};

export const startCommand: CommandLine<typeof flags> = {
  usage: ['npm start -- [options]'],
  about: `Builds what is missing or stale (the Whisper worker, the dashboard), then opens the desktop app; where\nElectron is not installed, starts the server headless with these options, as npm run serve does.\n${environment}`,
  flags,
};
