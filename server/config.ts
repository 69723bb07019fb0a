// Flags and FOLIO_* environment variables (docs/headless.md). The only reader of process.env.
import { homedir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';

export const DEFAULT_PORT = 4780;

const Config = z.object({
  port: z.coerce.number().int().min(0).max(65535).default(DEFAULT_PORT),
  host: z.string().default('127.0.0.1'),
  dataDir: z.string().transform((dir) => resolve(dir)),
  ownerEmail: z
    .email({ pattern: z.regexes.html5Email })
    .default('owner@localhost')
    .transform((e) => e.toLowerCase()),
  whisperModel: z.string().optional(),
  whisperThreads: z.coerce.number().int().min(1).max(64).default(2),
  /** The whisper.cpp worker binary; defaults to build/whisper/ in the checkout (a packaged app ships its own). */
  whisperWorker: z.string().optional(),
  /** Names besides the loopback ones that may appear in Host, for a hosted instance. */
  allowedHosts: z.array(z.string()).default([]),
  publicUrl: z.string().url().optional(),
  /** Folders whose files MCP tools may read by path (assets_upload, transcripts_create); none by default. */
  agentFileRoots: z
    .array(z.string())
    .default([])
    .transform((dirs) => dirs.map((dir) => resolve(dir))),
  fsync: z.boolean().default(true),
  limits: z
    .object({
      jsonBytes: z.number().default(1 << 20),
      uploadBytes: z.number().default(2 * 1024 ** 3),
      transcribeBytes: z.number().default(4 << 20),
      rateLimitPerMinute: z.number().default(1200),
      rateLimitBurst: z.number().default(200),
      /** After an early answer, how much of the unread request body is read and dropped, and for how long. */
      drainBytes: z.number().default(64 << 20),
      drainMs: z.number().default(10_000),
    })
    .default({
      jsonBytes: 1 << 20,
      uploadBytes: 2 * 1024 ** 3, // not 2 << 30: that is -2147483648 in 32-bit shift arithmetic
      transcribeBytes: 4 << 20,
      rateLimitPerMinute: 1200,
      rateLimitBurst: 200,
      drainBytes: 64 << 20,
      drainMs: 10_000,
    }),
  /** The render pool (diagrams, charts, artifacts): worker threads, time per render, cached output bytes. */
  render: z
    .object({
      threads: z.number().int().min(1).max(16).optional(),
      taskTimeoutMs: z.number().int().min(100).default(20_000),
      cacheBytes: z
        .number()
        .int()
        .min(0)
        .default(256 << 20),
    })
    .default({ taskTimeoutMs: 20_000, cacheBytes: 256 << 20 }),
  quiet: z.boolean().default(false),
  /** How often expired grants, links and uploads and orphaned bytes are swept (sweeper.ts); short in tests. */
  sweepMs: z
    .number()
    .int()
    .min(10)
    .default(5 * 60_000),
});

export type Config = z.output<typeof Config>;
export type ConfigInput = z.input<typeof Config>;

export const parseConfig = (input: ConfigInput): Config => Config.parse(input);

/** The user's data folder, as Electron's app.getPath('userData') would place it. */
export function defaultDataDir(): string {
  const home = homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Application Support', 'Folio');
  if (process.platform === 'win32')
    return join(process.env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Folio');
  return join(process.env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Folio');
}

export function configFromProcess(argv = process.argv.slice(2), env = process.env): Config {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      'owner-email': { type: 'string' },
      'whisper-model': { type: 'string' },
      'whisper-threads': { type: 'string' },
      'whisper-worker': { type: 'string' },
      'allowed-host': { type: 'string', multiple: true },
      'agent-file-root': { type: 'string', multiple: true },
      'no-fsync': { type: 'boolean' },
    },
    strict: true,
  });
  return parseConfig({
    port: values.port ?? env.FOLIO_PORT,
    host: values.host ?? env.FOLIO_HOST,
    dataDir: values['data-dir'] ?? env.FOLIO_DATA_DIR ?? defaultDataDir(),
    ownerEmail: values['owner-email'] ?? env.FOLIO_OWNER_EMAIL,
    whisperModel: values['whisper-model'] ?? env.FOLIO_WHISPER_MODEL,
    whisperThreads: values['whisper-threads'] ?? env.FOLIO_WHISPER_THREADS,
    whisperWorker: values['whisper-worker'] ?? env.FOLIO_WHISPER_WORKER,
    allowedHosts: values['allowed-host'] ?? env.FOLIO_ALLOWED_HOSTS?.split(',').filter(Boolean),
    agentFileRoots: values['agent-file-root'] ?? env.FOLIO_AGENT_FILE_ROOTS?.split(delimiter).filter(Boolean),
    fsync: values['no-fsync'] ? false : env.FOLIO_FSYNC !== '0',
  } as ConfigInput);
}
