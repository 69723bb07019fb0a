// Runs the headless server (server/main.ts) as a child process, as `npm run serve` does, so a test
// can read its console, kill -9 it, and start it again on the same data dir.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export type ChildServer = {
  proc: ChildProcess;
  url: string;
  ownerLink: string;
  /** Every stdout and stderr line so far. */
  lines: string[];
  exited: Promise<number | null>;
  kill(signal?: NodeJS.Signals): Promise<number | null>;
};

/**
 * `node --import tsx server/main.ts` (so a kill reaches the server itself, not an npx wrapper), or
 * `npx tsx server/main.ts` with `viaNpx`; `entry` runs another script that prints the same lines.
 * Resolves once both start-up lines are printed.
 */
export function spawnServer(
  args: string[],
  {
    viaNpx = false,
    env = {},
    timeoutMs = 30_000,
    entry = 'server/main.ts',
    user,
  }: {
    viaNpx?: boolean;
    env?: Record<string, string>;
    timeoutMs?: number;
    entry?: string;
    /** Run as this user (the tests run as root in CI, where file permissions would not bind the server). */
    user?: { uid: number; gid: number };
  } = {},
): Promise<ChildServer> {
  const command = viaNpx ? 'npx' : process.execPath;
  const argv = viaNpx ? ['tsx', entry, ...args] : [...profiling(), '--import', 'tsx', entry, ...args];
  const proc = spawn(command, argv, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // npx in a group of its own: npm 11 does not pass a signal on to the tsx it runs, so a kill goes to the group
    detached: viaNpx,
    ...user,
  });
  const signal = (sig: NodeJS.Signals) =>
    viaNpx && proc.pid ? process.kill(-proc.pid, sig) : proc.kill(sig);
  const lines: string[] = [];
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new Error(`server did not start in ${timeoutMs} ms:\n${lines.join('\n')}`)),
      timeoutMs,
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      if (proc.exitCode === null && proc.signalCode === null) signal('SIGKILL');
      reject(error);
    };
    const onLine = (line: string) => {
      lines.push(line);
      const link = lines.find((l) => l.startsWith('Owner sign-in: '));
      const listening = lines.find((l) => l.startsWith('Folio listening on '));
      if (link && listening) {
        clearTimeout(timer);
        resolve({
          proc,
          url: listening.slice('Folio listening on '.length),
          ownerLink: link.slice('Owner sign-in: '.length),
          lines,
          exited,
          kill: (sig = 'SIGKILL') => {
            if (proc.exitCode === null && proc.signalCode === null) signal(sig);
            return exited;
          },
        });
      }
    };
    splitLines(proc.stdout!, onLine);
    splitLines(proc.stderr!, onLine);
    exited.then((code) =>
      fail(new Error(`server exited with ${code} before starting:\n${lines.join('\n')}`)),
    );
  });
}

/** Runs the server expecting it to refuse to start; resolves with its exit code and output. */
export function runServerToExit(
  args: string[],
  timeoutMs = 30_000,
): Promise<{ code: number | null; output: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  proc.stdout.on('data', (d) => (output += d));
  proc.stderr.on('data', (d) => (output += d));
  return new Promise((resolve) => {
    const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

function splitLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop() ?? '';
    for (const line of parts) onLine(line);
  });
}

/** `FOLIO_CHILD_CPU_PROF=<dir>` (benches): each child server writes a V8 CPU profile there when it exits cleanly. */
export const childCpuProfileDir = () => process.env.FOLIO_CHILD_CPU_PROF;

const profiling = () => {
  const dir = childCpuProfileDir();
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
};
