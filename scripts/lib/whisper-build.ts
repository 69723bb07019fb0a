/** Compiles whisper.cpp 1.6.2 (bundled in smart-whisper) plus our worker, or its `main` example, with g++/gcc. */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { arch } from 'node:os';
import { basename, join } from 'node:path';

export type WhisperTarget = 'worker' | 'main';
export interface BuildOptions {
  root: string;
  targets: WhisperTarget[];
  force?: boolean;
  native?: boolean;
  jobs?: number;
}
export interface BuildResult {
  status: 'built' | 'up-to-date' | 'no-compiler';
  outputs: string[];
  ms: number;
}

const GGML_C = [
  'ggml/src/ggml.c',
  'ggml/src/ggml-alloc.c',
  'ggml/src/ggml-backend.c',
  'ggml/src/ggml-quants.c',
  'ggml/src/ggml-aarch64.c',
];
// sgemm.cpp (llamafile) is left out: in this tarball it does not match ggml-impl.h, and the
// whisper.cpp Makefile also builds without it unless GGML_LLAMAFILE is set.
const CORE_CXX = ['src/whisper.cpp'];
const MAIN_CXX = [
  'examples/main/main.cpp',
  'examples/common.cpp',
  'examples/common-ggml.cpp',
  'examples/grammar-parser.cpp',
];

export function whisperSourceDir(root: string): string {
  return join(root, 'node_modules/smart-whisper/whisper.cpp');
}

export function workerBinaryPath(root: string): string {
  return join(root, 'build/whisper/folio-whisper-worker');
}

/** SIMD flags: -march=native only on request, because a native build may not run on the user's CPU. */
export function simdFlags(native: boolean): string[] {
  if (native) return ['-march=native'];
  if (arch() !== 'x64') return [];
  const cpuinfo = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '';
  return /\bavx2\b/.test(cpuinfo) ? ['-mavx', '-mavx2', '-mfma', '-mf16c'] : [];
}

function hasCompiler(): boolean {
  return ['gcc', 'g++'].every((cc) => spawnSync(cc, ['--version'], { stdio: 'ignore' }).status === 0);
}

function run(cmd: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${cmd} ${args.join(' ')} failed (exit ${code}):\n${stderr}`));
    });
  });
}

async function runAll(tasks: Array<() => Promise<void>>, jobs: number): Promise<void> {
  const queue = [...tasks];
  const lanes = Array.from({ length: jobs }, async () => {
    for (let task = queue.shift(); task; task = queue.shift()) await task();
  });
  await Promise.all(lanes);
}

function newestMtime(paths: string[]): number {
  return Math.max(...paths.map((p) => statSync(p).mtimeMs));
}

function isFresh(output: string, inputs: string[]): boolean {
  return existsSync(output) && statSync(output).mtimeMs > newestMtime(inputs);
}

function headerFiles(src: string): string[] {
  const dirs = ['ggml/include', 'ggml/src', 'include', 'src'];
  return dirs.flatMap((d) =>
    spawnSync('find', [join(src, d), '-maxdepth', '1', '-name', '*.h*'], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter(Boolean),
  );
}

/** Builds the requested targets into <root>/build/whisper; skips work when outputs are newer than sources. */
export async function buildWhisperTargets(options: BuildOptions): Promise<BuildResult> {
  const started = Date.now();
  if (!hasCompiler()) return { status: 'no-compiler', outputs: [], ms: 0 };
  const src = whisperSourceDir(options.root);
  const out = join(options.root, 'build/whisper');
  const workerSrc = join(options.root, 'resources/whisper-worker/worker.cpp');
  const cppflags = [
    '-I',
    `${src}/ggml/include`,
    '-I',
    `${src}/ggml/src`,
    '-I',
    `${src}/include`,
    '-I',
    `${src}/src`,
    '-I',
    `${src}/examples`,
    '-D_XOPEN_SOURCE=600',
    '-D_GNU_SOURCE',
    '-DNDEBUG',
    '-DGGML_USE_OPENMP',
  ];
  const common = ['-O3', '-pthread', '-fopenmp', ...simdFlags(options.native ?? false), ...cppflags];
  const headers = headerFiles(src);
  const flagsKey = common.join(' ');

  const objects = new Map<string, { source: string; lang: 'c' | 'c++' }>();
  const addObject = (rel: string, lang: 'c' | 'c++', base = src) =>
    objects.set(join(out, 'obj', `${basename(rel).replace(/\.(c|cpp)$/, '')}.o`), {
      source: join(base, rel),
      lang,
    });
  for (const f of GGML_C) addObject(f, 'c');
  for (const f of CORE_CXX) addObject(f, 'c++');
  const links: Array<{ output: string; objs: string[] }> = [];
  const coreObjs = () =>
    [...GGML_C, ...CORE_CXX].map((f) => join(out, 'obj', `${basename(f).replace(/\.(c|cpp)$/, '')}.o`));
  if (options.targets.includes('worker')) {
    addObject('worker.cpp', 'c++', join(options.root, 'resources/whisper-worker'));
    // worker.cpp #includes src/whisper.cpp (to reach whisper_state's backends), so it links without whisper.o
    const ggmlObjs = GGML_C.map((f) => join(out, 'obj', `${basename(f).replace(/\.c$/, '')}.o`));
    links.push({ output: workerBinaryPath(options.root), objs: [...ggmlObjs, join(out, 'obj/worker.o')] });
  }
  if (options.targets.includes('main')) {
    for (const f of MAIN_CXX) addObject(f, 'c++');
    const mainObjs = MAIN_CXX.map((f) => join(out, 'obj', `${basename(f).replace(/\.cpp$/, '')}.o`));
    links.push({ output: join(out, 'whisper-main'), objs: [...coreObjs(), ...mainObjs] });
  }

  // flags.txt records the flags used, so switching FOLIO_WHISPER_NATIVE rebuilds everything
  const flagsFile = join(out, 'obj', 'flags.txt');
  const flagsChanged = !existsSync(flagsFile) || readFileSync(flagsFile, 'utf8') !== flagsKey;
  const stale = [...objects].filter(
    ([obj, { source }]) =>
      options.force || flagsChanged || !isFresh(obj, [source, ...headers, join(src, 'src/whisper.cpp')]),
  );
  const staleLinks = links.filter(
    (l) =>
      options.force || stale.length > 0 || !isFresh(l.output, l.objs.filter(existsSync).concat(workerSrc)),
  );
  if (stale.length === 0 && staleLinks.length === 0) {
    return { status: 'up-to-date', outputs: links.map((l) => l.output), ms: Date.now() - started };
  }

  mkdirSync(join(out, 'obj'), { recursive: true });
  const compile =
    ([obj, { source, lang }]: [string, { source: string; lang: 'c' | 'c++' }]) =>
    () =>
      lang === 'c'
        ? run('gcc', ['-std=c11', ...common, '-c', source, '-o', obj])
        : run('g++', ['-std=c++11', ...common, '-c', source, '-o', obj]);
  // largest translation units first so two lanes finish together
  const order = ['ggml.o', 'whisper.o', 'ggml-quants.o'];
  stale.sort(([a], [b]) => rank(order, basename(a)) - rank(order, basename(b)));
  await runAll(stale.map(compile), options.jobs ?? 2);
  writeFileSync(flagsFile, flagsKey);
  for (const l of links) await run('g++', [...common, ...l.objs, '-o', l.output, '-lm']);
  return { status: 'built', outputs: links.map((l) => l.output), ms: Date.now() - started };
}

function rank(order: string[], name: string): number {
  const i = order.indexOf(name);
  return i === -1 ? order.length : i;
}
