/** Compiles whisper.cpp 1.6.2 (bundled in smart-whisper) plus our worker, or its `main` example, with g++/gcc. */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
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
  const dirs = ['ggml/include', 'ggml/src', 'include', 'src'].map((d) => join(src, d));
  return dirs.flatMap((d) =>
    readdirSync(d)
      .filter((f) => /\.h(pp)?$/.test(f))
      .map((f) => join(d, f)),
  );
}

const objectPath = (out: string, source: string) =>
  join(out, 'obj', `${basename(source).replace(/\.(c|cpp)$/, '')}.o`);

interface Plan {
  objects: Array<{ obj: string; source: string }>;
  links: Array<{ output: string; objs: string[] }>;
}

function planTargets(root: string, targets: WhisperTarget[]): Plan {
  const src = whisperSourceDir(root);
  const out = join(root, 'build/whisper');
  const ggml = GGML_C.map((f) => join(src, f));
  const sources = new Set(ggml);
  const links: Plan['links'] = [];
  if (targets.includes('worker')) {
    // worker.cpp #includes src/whisper.cpp (to reach whisper_state's backends), so it needs no whisper.o
    const worker = join(root, 'resources/whisper-worker/worker.cpp');
    sources.add(worker);
    links.push({ output: workerBinaryPath(root), objs: [...ggml, worker].map((f) => objectPath(out, f)) });
  }
  if (targets.includes('main')) {
    const main = [...CORE_CXX, ...MAIN_CXX].map((f) => join(src, f));
    for (const f of main) sources.add(f);
    links.push({
      output: join(out, 'whisper-main'),
      objs: [...ggml, ...main].map((f) => objectPath(out, f)),
    });
  }
  return { objects: [...sources].map((source) => ({ obj: objectPath(out, source), source })), links };
}

function compileFlags(src: string, native: boolean): string[] {
  const includes = ['ggml/include', 'ggml/src', 'include', 'src', 'examples'].flatMap((d) => [
    '-I',
    join(src, d),
  ]);
  // the defines whisper.cpp's Makefile uses on Linux (OpenMP on, llamafile off by default)
  const defines = ['-D_XOPEN_SOURCE=600', '-D_GNU_SOURCE', '-DNDEBUG', '-DGGML_USE_OPENMP'];
  return ['-O3', '-pthread', '-fopenmp', ...simdFlags(native), ...includes, ...defines];
}

/** Builds the requested targets into <root>/build/whisper; skips work when outputs are newer than sources. */
export async function buildWhisperTargets(options: BuildOptions): Promise<BuildResult> {
  const started = Date.now();
  if (!hasCompiler()) return { status: 'no-compiler', outputs: [], ms: 0 };
  const src = whisperSourceDir(options.root);
  const out = join(options.root, 'build/whisper');
  const flags = compileFlags(src, options.native ?? false);
  const plan = planTargets(options.root, options.targets);
  const deps = [...headerFiles(src), join(src, 'src/whisper.cpp')];

  // flags.txt records the flags used, so switching FOLIO_WHISPER_NATIVE rebuilds everything
  const flagsFile = join(out, 'obj', 'flags.txt');
  const flagsChanged = !existsSync(flagsFile) || readFileSync(flagsFile, 'utf8') !== flags.join(' ');
  const rebuildAll = options.force || flagsChanged;
  const stale = plan.objects.filter(({ obj, source }) => rebuildAll || !isFresh(obj, [source, ...deps]));
  const staleLinks = plan.links.filter(
    (l) => stale.length > 0 || !isFresh(l.output, l.objs.filter(existsSync)),
  );
  const outputs = plan.links.map((l) => l.output);
  if (stale.length === 0 && staleLinks.length === 0)
    return { status: 'up-to-date', outputs, ms: Date.now() - started };

  mkdirSync(join(out, 'obj'), { recursive: true });
  // largest translation units first so the two lanes finish together
  const order = ['ggml.o', 'worker.o', 'whisper.o', 'ggml-quants.o'];
  stale.sort((a, b) => rank(order, basename(a.obj)) - rank(order, basename(b.obj)));
  const compile =
    ({ obj, source }: Plan['objects'][number]) =>
    () =>
      source.endsWith('.c')
        ? run('gcc', ['-std=c11', ...flags, '-c', source, '-o', obj])
        : run('g++', ['-std=c++11', ...flags, '-c', source, '-o', obj]);
  await runAll(stale.map(compile), options.jobs ?? 2);
  writeFileSync(flagsFile, flags.join(' '));
  for (const l of staleLinks) await run('g++', [...flags, ...l.objs, '-o', l.output, '-lm']);
  return { status: 'built', outputs, ms: Date.now() - started };
}

function rank(order: string[], name: string): number {
  const i = order.indexOf(name);
  return i === -1 ? order.length : i;
}
