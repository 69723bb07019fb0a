// wrk runs for the foundation bench: requests/s and latency percentiles, with an optional Lua script for writes.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export type WrkRun = { reqPerSec: number; p50: number; p99: number; requests: number; non2xx: number };

export type WrkOptions = {
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
  /** Lua source; written to `scriptDir`. */
  script?: string;
  scriptDir?: string;
};

/** Milliseconds from wrk's `1.23ms` / `456.00us` / `1.02s`. */
function toMs(value: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(value);
  if (!m) return Number.NaN;
  const n = Number(m[1]);
  return m[2] === 'us' ? n / 1000 : m[2] === 'ms' ? n : m[2] === 's' ? n * 1000 : n * 60_000;
}

export async function wrk(url: string, options: WrkOptions): Promise<WrkRun> {
  const args = [
    `-c${options.connections}`,
    `-t${Math.min(2, options.connections)}`,
    `-d${options.seconds}s`,
    '--latency',
    '--timeout',
    '30s',
  ];
  for (const [k, v] of Object.entries(options.headers ?? {})) args.push('-H', `${k}: ${v}`);
  if (options.script) {
    const path = join(
      options.scriptDir ?? '/tmp',
      `wrk-${process.pid}-${Math.random().toString(36).slice(2)}.lua`,
    );
    await writeFile(path, options.script);
    args.push('-s', path);
  }
  const { stdout } = await run('wrk', [...args, url], { maxBuffer: 1 << 20 });
  const pct = (p: string) => toMs(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(stdout)?.[1] ?? '');
  return {
    reqPerSec: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0),
    p50: pct('50'),
    p99: pct('99'),
    requests: Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0),
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0),
  };
}

/** A Lua script sending `method` with `body` to one of `paths`, chosen at random per request. */
export function luaRequests(
  method: string,
  paths: string[],
  body: string,
  headers: Record<string, string>,
): string {
  const list = paths.map((p) => JSON.stringify(p)).join(',\n');
  const hdrs = Object.entries(headers)
    .map(([k, v]) => `[${JSON.stringify(k)}] = ${JSON.stringify(v)}`)
    .join(', ');
  return `local paths = {\n${list}\n}
local headers = { ${hdrs} }
local body = ${JSON.stringify(body)}
request = function()
  return wrk.format(${JSON.stringify(method)}, paths[math.random(#paths)], headers, body)
end
`;
}
