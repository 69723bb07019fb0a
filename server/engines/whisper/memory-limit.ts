/**
 * ffmpeg's memory bound (README "Audio decoding"). Node cannot set a child's resource limits, so on Linux and macOS
 * the child starts as /bin/sh, which sets the limit and then execs the program in its own place. The program, its
 * arguments and the limit reach the shell as positional parameters, never as part of the script, so no file name
 * is ever read as shell syntax.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

/**
 * ffmpeg's address space unless configured (FOLIO_MAX_DECODE_MEMORY_MB). Debian 12's ffmpeg 5.1 maps about 285 MiB
 * for any decode (its shared libraries are most of it, and it does not load in under 260 MiB); newer builds add
 * threads, each with its own stack and malloc arena, so the default leaves a wide margin.
 */
export const DEFAULT_DECODE_MEMORY_MB = 2048;

// `ulimit -v` is RLIMIT_AS (Linux; dash, bash and zsh all have it); where the shell or kernel refuses it, `-d`
// (RLIMIT_DATA) is tried. Best effort: macOS before 12 stores both and enforces neither, and a later macOS refuses
// a limit below what the shell already maps; if neither is set the decode still runs, bounded by its other limits.
const LIMIT_THEN_EXEC = 'ulimit -v "$1" 2>/dev/null || ulimit -d "$1" 2>/dev/null; shift; exec "$@"';

/** Whether `spawnWithMemoryLimit` bounds memory here: Windows has no rlimits, so ffmpeg's memory is unbounded there. */
export const memoryLimited = process.platform !== 'win32';

/**
 * Spawns `command` (no stdin; stdout and stderr piped) with its address space capped at `limitMb` where the platform
 * allows (see `memoryLimited`).
 */
export function spawnWithMemoryLimit(
  command: string,
  args: string[],
  limitMb: number,
): ChildProcessByStdio<null, Readable, Readable> {
  const stdio = ['ignore', 'pipe', 'pipe'] as const;
  if (!memoryLimited) return spawn(command, args, { stdio: [...stdio] });
  const kib = String(Math.floor(limitMb * 1024));
  return spawn('/bin/sh', ['-c', LIMIT_THEN_EXEC, 'sh', kib, command, ...args], { stdio: [...stdio] });
}

// What running out of the limit looks like: the loader cannot map a library ("failed to map segment"), ffmpeg reports
// ENOMEM ("Cannot allocate memory") or a failed allocation in its own words, or a C++ library throws bad_alloc.
export const OUT_OF_MEMORY = /Cannot allocate memory|failed to map segment|Error allocating|bad_alloc/;

/** The shell's own complaint when it cannot exec the program ("sh: 1: exec: /x: not found"), without its prefix. */
export function cannotExec(stderr: string, code: number | null): string | undefined {
  if (!memoryLimited || (code !== 126 && code !== 127)) return undefined;
  return /^sh: (?:line )?\d+: (.*)/.exec(stderr.trimStart())?.[1];
}
