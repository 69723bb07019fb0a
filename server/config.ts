// Flags and FOLIO_* environment variables (docs/headless.md). The only reader of process.env.
import { homedir, hostname } from 'node:os';
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
  /** Where Whisper runs: auto (a GPU when one works), cpu or gpu (server/engines/whisper/device.ts). */
  whisperDevice: z.enum(['auto', 'cpu', 'gpu']).default('auto'),
  /** The whisper.cpp worker binary; defaults to build/whisper/ in the checkout (a packaged app ships its own). */
  whisperWorker: z.string().optional(),
  /** The ffmpeg that decodes uploads; default `ffmpeg` on PATH when 5.0 or newer (README "Audio decoding"). */
  ffmpeg: z.string().min(1).optional(),
  /** Names besides the loopback ones that may appear in Host, for a hosted instance. */
  allowedHosts: z.array(z.string()).default([]),
  /** A hosted instance's address as browsers see it (https://folio.example.com): links, Host, Origin, Secure cookies. */
  publicUrl: z
    .url({ protocol: /^https?$/ })
    .transform((url) => url.replace(/\/+$/, ''))
    .optional(),
  /** Proxies (addresses or CIDR ranges) whose X-Forwarded-For names the client, for rate limits and logs. */
  trustedProxies: z.array(z.string().min(1)).default([]),
  /**
   * nginx's internal location for the data directory (e.g. `/_folio/data/`): file blobs and image derivatives
   * are answered with `X-Accel-Redirect` so nginx sends the bytes (deploy/nginx/folio.conf).
   */
  accelRedirect: z
    .string()
    .regex(/^\/([A-Za-z0-9._-]+\/)+$/, 'must be a path like /_folio/data/')
    .optional(),
  /** `json`: one JSON object per log line (hosted default), else plain lines (desktop default). */
  logFormat: z.enum(['text', 'json']).optional(),
  /** Folders whose files MCP tools may read by path (assets_upload, transcripts_create); none by default. */
  agentFileRoots: z
    .array(z.string())
    .default([])
    .transform((dirs) => dirs.map((dir) => resolve(dir))),
  /** Folders whose recordings are imported into the owner's personal workspace and transcribed (--watch). */
  watch: z
    .array(z.string())
    .default([])
    .transform((dirs) => dirs.map((dir) => resolve(dir))),
  /** Transcript files written beside each watched recording once it completes (--watch-beside txt,srt). */
  watchBeside: z.array(z.enum(['txt', 'srt'], 'watch-beside may name txt and srt')).default([]),
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
      /** The longest recording decoded for transcription; default 4 hours (decode-audio.ts). */
      audioSeconds: z.number().int().min(1).optional(),
      /** ffmpeg's address space per decode in MiB; default 2048 (memory-limit.ts), not enforced on Windows. */
      decodeMemoryMb: z.number().int().min(64).optional(),
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
  /**
   * The render pool (diagrams, charts, artifacts): render processes, time and V8 heap per render, cached
   * output bytes.
   */
  render: z
    .object({
      threads: z.number().int().min(1).max(16).optional(),
      taskTimeoutMs: z.number().int().min(100).default(20_000),
      maxHeapMb: z.number().int().min(32).default(1024),
      cacheBytes: z
        .number()
        .int()
        .min(0)
        .default(256 << 20),
    })
    .default({ taskTimeoutMs: 20_000, maxHeapMb: 1024, cacheBytes: 256 << 20 }),
  quiet: z.boolean().default(false),
  /** Hosted mode: records in PostgreSQL (FOLIO_DATABASE_URL). Without it, records are files in dataDir. */
  database: z
    .object({
      url: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'),
      poolSize: z.coerce.number().int().min(2).max(1000).default(10),
    })
    .optional(),
  /** Hosted mode: blobs in an S3-compatible bucket (FOLIO_S3_*). Without it, blobs are files in dataDir. */
  s3: z
    .object({
      bucket: z.string().min(3),
      endpoint: z.url().optional(),
      region: z.string().min(1).default('us-east-1'),
      accessKeyId: z.string().min(1).optional(),
      secretAccessKey: z.string().min(1).optional(),
      /** Path-style URLs (`endpoint/bucket/key`): what S3-compatible servers expect; AWS takes either. */
      forcePathStyle: z.boolean().optional(),
      prefix: z.string().optional(),
    })
    .optional(),
  /**
   * Names this process among the nodes of a hosted instance (start-up lines, logs, its scratch directory, the
   * transcription jobs it holds). Default: `local` on the desktop, `<hostname>-<pid>` when hosted; give each node
   * a stable one so a restarted node takes its own unfinished jobs back at once.
   */
  nodeId: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, 'node id may use letters, digits, ".", "_" and "-"')
    .optional(),
  /** Sign-in links by email (FOLIO_SMTP_URL, e.g. smtps://user:pass@mail.example.com); without it they are printed. */
  smtp: z
    .object({
      url: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL'),
      from: z.string().min(3).default('Folio <folio@localhost>'),
    })
    .optional(),
  /** How long a node holds a transcription job without renewing it before another node may take it over. */
  jobLeaseMs: z.number().int().min(500).default(30_000),
  /**
   * A transcription that shows no sign of progress for this long (its decode writes no audio, its worker's
   * computation does not advance) is ended with an error, and the next job starts.
   */
  jobStallMs: z.number().int().min(500).default(120_000),
  /**
   * Hosted: a node that cannot transcribe (no worker or no model) leaves a pending job to the nodes that can for
   * this long; then it takes it, and the job fails with the reason instead of waiting for ever.
   */
  jobUnclaimedMs: z.number().int().min(0).default(60_000),
  /** Hosted: how often each node looks for work other nodes queued (and for jobs whose node died). */
  queuePollMs: z.number().int().min(50).default(1000),
  /** Bytes with no record are left alone this long: an upload under way (on any node) owns them. */
  orphanGraceMs: z.number().int().min(0).default(3600_000),
  /** How often expired grants, links and uploads and orphaned bytes are swept (sweeper.ts); short in tests. */
  sweepMs: z
    .number()
    .int()
    .min(10)
    .default(5 * 60_000),
});

const HostedConfig = Config.refine((c) => !c.s3 || c.database, {
  message:
    'FOLIO_S3_BUCKET needs FOLIO_DATABASE_URL: blobs in a bucket are for a hosted instance on PostgreSQL',
  path: ['s3'],
}).transform((c) => ({
  ...c,
  nodeId: c.nodeId ?? (c.database ? `${hostname()}-${process.pid}` : 'local'),
  logFormat: c.logFormat ?? (c.database ? ('json' as const) : ('text' as const)),
}));

export type Config = z.output<typeof HostedConfig>;
export type ConfigInput = z.input<typeof Config>;

export const parseConfig = (input: ConfigInput): Config => HostedConfig.parse(input);

/** The user's data folder, as Electron's app.getPath('userData') would place it. */
export function defaultDataDir(): string {
  const home = homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Application Support', 'Folio');
  if (process.platform === 'win32')
    return join(process.env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Folio');
  return join(process.env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Folio');
}

/** One command-line flag: what node's parseArgs reads, and its line in the usage (server/cli/command-line.ts). */
export type Flag = {
  type: 'string' | 'boolean';
  multiple?: boolean;
  /** What the value stands for in the usage, e.g. `<n>`. */
  value?: string;
  help: string;
};
export type Flags = Record<string, Flag>;

/** The server's flags, each with its environment twin: `npm run serve` and `npm start` print their usage from it. */
export const serveFlags = {
  port: {
    type: 'string',
    value: '<n>',
    help: `Port to listen on, 0 for a free one (FOLIO_PORT; ${DEFAULT_PORT})`,
  },
  host: { type: 'string', value: '<address>', help: 'Address to listen on (FOLIO_HOST; 127.0.0.1)' },
  'data-dir': { type: 'string', value: '<dir>', help: "Data folder (FOLIO_DATA_DIR; the desktop app's)" },
  'owner-email': {
    type: 'string',
    value: '<email>',
    help: "The owner's email (FOLIO_OWNER_EMAIL; owner@localhost)",
  },
  'whisper-model': {
    type: 'string',
    value: '<path>',
    help: 'A ggml Whisper model, active from start-up (FOLIO_WHISPER_MODEL)',
  },
  'whisper-threads': {
    type: 'string',
    value: '<n>',
    help: 'Threads per transcription (FOLIO_WHISPER_THREADS; 2)',
  },
  'whisper-device': {
    type: 'string',
    value: '<auto|cpu|gpu>',
    help: 'Where Whisper runs: auto (a GPU when one works, else the CPU), cpu or gpu (FOLIO_WHISPER_DEVICE; auto)',
  },
  'whisper-worker': {
    type: 'string',
    value: '<path>',
    help: 'The whisper.cpp worker binary (FOLIO_WHISPER_WORKER; build/whisper/)',
  },
  'allowed-host': {
    type: 'string',
    multiple: true,
    value: '<name>',
    help: 'A name besides loopback allowed in Host (FOLIO_ALLOWED_HOSTS)',
  },
  'agent-file-root': {
    type: 'string',
    multiple: true,
    value: '<dir>',
    help: 'A folder MCP tools may read files from (FOLIO_AGENT_FILE_ROOTS)',
  },
  watch: {
    type: 'string',
    multiple: true,
    value: '<dir>',
    help: "A folder whose recordings are transcribed into the owner's workspace as they appear (FOLIO_WATCH)",
  },
  'watch-beside': {
    type: 'string',
    value: '<txt,srt>',
    help: "Also write each watched recording's transcript beside it (FOLIO_WATCH_BESIDE)",
  },
  'no-fsync': {
    type: 'boolean',
    help: 'Do not fsync writes: faster, less safe on power loss (FOLIO_FSYNC=0)',
  },
  ffmpeg: {
    type: 'string',
    value: '<path>',
    help: 'The ffmpeg that decodes uploads (FOLIO_FFMPEG; ffmpeg 5.0+ on PATH)',
  },
  'public-url': {
    type: 'string',
    value: '<url>',
    help: "A hosted instance's address as browsers see it (FOLIO_PUBLIC_URL)",
  },
} as const satisfies Flags;

export function configFromProcess(argv = process.argv.slice(2), env = process.env): Config {
  const { values } = parseArgs({ args: argv, options: serveFlags, strict: true });
  return parseConfig({
    port: values.port ?? env.FOLIO_PORT,
    host: values.host ?? env.FOLIO_HOST,
    dataDir: values['data-dir'] ?? env.FOLIO_DATA_DIR ?? defaultDataDir(),
    ownerEmail: values['owner-email'] ?? env.FOLIO_OWNER_EMAIL,
    whisperModel: values['whisper-model'] ?? env.FOLIO_WHISPER_MODEL,
    whisperThreads: values['whisper-threads'] ?? env.FOLIO_WHISPER_THREADS,
    whisperDevice: values['whisper-device'] ?? (env.FOLIO_WHISPER_DEVICE || undefined),
    whisperWorker: values['whisper-worker'] ?? env.FOLIO_WHISPER_WORKER,
    ffmpeg: values.ffmpeg ?? (env.FOLIO_FFMPEG || undefined),
    allowedHosts: values['allowed-host'] ?? env.FOLIO_ALLOWED_HOSTS?.split(',').filter(Boolean),
    agentFileRoots: values['agent-file-root'] ?? env.FOLIO_AGENT_FILE_ROOTS?.split(delimiter).filter(Boolean),
    watch: values.watch ?? env.FOLIO_WATCH?.split(delimiter).filter(Boolean),
    watchBeside: (values['watch-beside'] ?? env.FOLIO_WATCH_BESIDE)
      ?.split(',')
      .map((f) => f.trim())
      .filter(Boolean),
    fsync: values['no-fsync'] ? false : env.FOLIO_FSYNC !== '0',
    database: env.FOLIO_DATABASE_URL
      ? { url: env.FOLIO_DATABASE_URL, poolSize: env.FOLIO_DATABASE_POOL_SIZE }
      : undefined,
    s3: env.FOLIO_S3_BUCKET
      ? {
          bucket: env.FOLIO_S3_BUCKET,
          endpoint: env.FOLIO_S3_ENDPOINT || undefined,
          region: env.FOLIO_S3_REGION || undefined,
          accessKeyId: env.FOLIO_S3_ACCESS_KEY_ID || undefined,
          secretAccessKey: env.FOLIO_S3_SECRET_ACCESS_KEY || undefined,
          forcePathStyle: flag(env.FOLIO_S3_FORCE_PATH_STYLE),
          prefix: env.FOLIO_S3_PREFIX || undefined,
        }
      : undefined,
    nodeId: env.FOLIO_NODE_ID || undefined,
    publicUrl: values['public-url'] ?? (env.FOLIO_PUBLIC_URL || undefined),
    trustedProxies: env.FOLIO_TRUSTED_PROXIES?.split(',')
      .map((p) => p.trim())
      .filter(Boolean),
    accelRedirect: env.FOLIO_ACCEL_REDIRECT || undefined,
    jobLeaseMs: numberOr(env.FOLIO_JOB_LEASE_MS),
    jobStallMs: numberOr(env.FOLIO_JOB_STALL_MS),
    jobUnclaimedMs: numberOr(env.FOLIO_JOB_UNCLAIMED_MS),
    queuePollMs: numberOr(env.FOLIO_QUEUE_POLL_MS),
    sweepMs: numberOr(env.FOLIO_SWEEP_MS),
    orphanGraceMs: numberOr(env.FOLIO_ORPHAN_GRACE_MS),
    limits: {
      rateLimitPerMinute: numberOr(env.FOLIO_RATE_LIMIT_PER_MINUTE),
      rateLimitBurst: numberOr(env.FOLIO_RATE_LIMIT_BURST),
      audioSeconds: numberOr(env.FOLIO_MAX_AUDIO_SECONDS),
      decodeMemoryMb: numberOr(env.FOLIO_MAX_DECODE_MEMORY_MB),
    },
    logFormat: env.FOLIO_LOG_FORMAT || undefined,
    smtp: env.FOLIO_SMTP_URL
      ? { url: env.FOLIO_SMTP_URL, from: env.FOLIO_MAIL_FROM || undefined }
      : undefined,
  } as ConfigInput);
}

/** A number from the environment; anything else is passed on for the schema to refuse. */
const numberOr = (value: string | undefined): number | string | undefined =>
  value === undefined || value === '' ? undefined : Number.isFinite(Number(value)) ? Number(value) : value;

/** `1`/`true`/`yes` and `0`/`false`/`no`; anything else is passed on for the schema to refuse. */
function flag(value: string | undefined): boolean | string | undefined {
  if (value === undefined || value === '') return undefined;
  if (/^(1|true|yes)$/i.test(value)) return true;
  if (/^(0|false|no)$/i.test(value)) return false;
  return value;
}
