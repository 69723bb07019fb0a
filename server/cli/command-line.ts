// The flags of Folio's command-line entries (serve, start, folio, sync). Each entry keeps one table of its flags with
// their help lines: node's parseArgs reads the command line from it and the usage is printed from it, so the two
// cannot drift. `--help`/`-h` prints the usage on stdout (exit 0); a command line that cannot be read prints the
// problem and the usage on stderr (exit 2, the usual code for a usage error), before the entry does any work.
import { parseArgs } from 'node:util';
import type { Flag, Flags } from '../config.js';

export type { Flag, Flags };

export type CommandLine<F extends Flags> = {
  /** The synopsis after `Usage: `, one line per form. */
  usage: string[];
  /** What the command does, and anything to know besides the flags (environment, exit codes). */
  about: string;
  flags: F;
  /** Whether it takes positional arguments (`export <dir>`); the entry checks them. */
  positionals?: boolean;
};

type FlagValue<T extends Flag> = T['multiple'] extends true ? ValueOf<T>[] : ValueOf<T>;
type ValueOf<T extends Flag> = T['type'] extends 'string' ? string : boolean;
export type FlagValues<F extends Flags> = { [K in keyof F]?: FlagValue<F[K]> };
export type ReadCommandLine<F extends Flags> = { values: FlagValues<F>; positionals: string[] };

/**
 * The flags and positionals of `argv`, or undefined when the entry must stop: the usage was asked for (printed on
 * stdout) or the command line is wrong (printed on stderr); `process.exitCode` is then set (0 or 2).
 */
export function readCommandLine<F extends Flags>(
  command: CommandLine<F>,
  argv = process.argv.slice(2),
): ReadCommandLine<F> | undefined {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...command.flags, help: { type: 'boolean', short: 'h' } },
      allowPositionals: Boolean(command.positionals),
      strict: true,
    }) as ReadCommandLine<F & { help: Flag & { type: 'boolean' } }>;
    if (values.help) {
      process.stdout.write(usageText(command));
      process.exitCode = 0;
      return undefined;
    }
    return { values, positionals };
  } catch (error) {
    if (!isUsageProblem(error)) throw error;
    failUsage(command, error.message);
    return undefined;
  }
}

/** Prints `problem` and the usage on stderr and sets exit code 2 (a required flag that is missing, say). */
export function failUsage(command: CommandLine<Flags>, problem: string): void {
  process.stderr.write(`${problem}\n\n${usageText(command)}`);
  process.exitCode = 2;
}

/** The usage: synopsis, what it does, and one line per flag from the table. */
export function usageText(command: CommandLine<Flags>): string {
  const rows: Array<[string, string]> = Object.entries(command.flags).map(([name, flag]) => [
    `    --${name}${flag.value ? ` ${flag.value}` : ''}`,
    flag.help + (flag.multiple ? ' (repeatable)' : ''),
  ]);
  rows.push(['-h, --help', 'Show this help and exit']);
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  const [first, ...more] = command.usage;
  return [
    `Usage: ${first}`,
    ...more.map((line) => `       ${line}`),
    '',
    command.about,
    '',
    'Options:',
    ...rows.map(([left, help]) => `  ${left.padEnd(width)}${help}`),
    '',
  ].join('\n');
}

/** parseArgs's refusals (an unknown flag, a missing value, a stray argument); anything else is a bug. */
function isUsageProblem(error: unknown): error is Error {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}
