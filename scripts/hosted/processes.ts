// What the throw-away service launchers share: free ports, running a command as an unprivileged system user
// when we are root (PostgreSQL and Swift refuse to run as root, or never drop it), and waiting for a port.
import { execFile, spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { chown } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { userInfo } from 'node:os';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const isRoot = () => process.getuid?.() === 0;

/** A port nothing listens on right now (the kernel's pick), on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** `command args` as `user` when we are root (setpriv keeps the environment), else as ourselves. */
export function asUser(user: string, command: string, args: string[]): [string, string[]] {
  if (!isRoot()) return [command, args];
  return ['setpriv', [`--reuid=${user}`, `--regid=${user}`, '--init-groups', command, ...args]];
}

/** Runs to completion; rejects with its stderr on failure. */
export async function runAs(user: string, command: string, args: string[], env?: NodeJS.ProcessEnv) {
  const [cmd, argv] = asUser(user, command, args);
  return run(cmd, argv, { env: { ...process.env, ...env }, maxBuffer: 16 << 20 });
}

/** Starts a long-running server detached from us (it outlives the test worker that started it); returns its pid. */
export function spawnDetached(user: string, command: string, args: string[], logFile: string): number {
  const [cmd, argv] = asUser(user, command, args);
  const log = openSync(logFile, 'a');
  const child = spawn(cmd, argv, { detached: true, stdio: ['ignore', log, log] });
  child.unref();
  if (!child.pid) throw new Error(`${command} did not start`);
  return child.pid;
}

/** Hands a directory we created to `user`, so a server running as that user may write there. */
export async function giveTo(user: string, path: string): Promise<void> {
  if (!isRoot() || user === userInfo().username) return;
  const { stdout } = await run('id', ['-u', user]);
  const { stdout: gid } = await run('id', ['-g', user]);
  await chown(path, Number(stdout), Number(gid));
}

/** Resolves once something accepts connections on the port; rejects after `timeoutMs`. */
export async function waitForPort(port: number, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ port, host: '127.0.0.1' });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what} did not listen on port ${port} within ${timeoutMs} ms`);
}

/** Sends `signal` to a process we started, ignoring one that is already gone. */
export function stopPid(pid: number, signal: NodeJS.Signals = 'SIGTERM'): void {
  try {
    process.kill(pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** Resolves once the process is gone (or after `timeoutMs`, then killing it). */
export async function waitForExit(pid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  stopPid(pid, 'SIGKILL');
}
