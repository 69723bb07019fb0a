/**
 * Builds the worker (resources/whisper-worker/) with CMake on whisper.cpp 1.9.1, whose source ships in the
 * nodejs-whisper npm package (its install script is never run). ggml's backends are loadable modules
 * (GGML_BACKEND_DL): every x86-64 CPU variant plus a GPU module where its toolchain is found, all copied beside
 * the worker in build/whisper/, where it loads them at run time (DEVELOPERS.md "Transcription engine"), with the
 * Silero VAD weights converted for whisper.cpp's voice activity detection (silero-vad.ts).
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { installVadModel } from './silero-vad.js';

export type WhisperTarget = 'worker' | 'cli';
export type GpuBackend = 'cuda' | 'vulkan' | 'metal' | 'off';
/** The GPU modules one build makes: `vulkan,cuda` builds both beside the CPU modules (a release); `off` none. */
export type GpuChoice = GpuBackend[];
/**
 * `all`: a CPU module per instruction-set level (what ships); `host`: one module for this machine's CPU, the
 * default for a checkout (Linux; elsewhere the same as all).
 */
export type CpuVariants = 'all' | 'host';
export interface BuildOptions {
  root: string;
  targets: WhisperTarget[];
  force?: boolean;
  /** FOLIO_WHISPER_GPU; auto when not given (Metal on macOS, CUDA with nvcc, Vulkan with glslc). */
  gpu?: GpuChoice | 'auto';
  /** FOLIO_WHISPER_CPU; default all. */
  cpu?: CpuVariants;
  jobs?: number;
  /** Where the build's few progress lines go (the compiler's output goes to buildLogPath). */
  say?: (line: string) => void;
  /** Where to install instead of build/whisper/ (its build trees inside it): a second build beside the first. */
  out?: string;
  /** macOS: the architecture to build for (FOLIO_WHISPER_ARCH=arm64|x64), for a universal app; default this one. */
  arch?: string;
}
export interface BuildResult {
  status: 'built' | 'up-to-date' | 'no-toolchain';
  outputs: string[];
  /** What was built, joined: `vulkan,cuda`, `off`. */
  gpu: string;
  /** Why nothing was built, when status is no-toolchain. */
  missing?: string;
  /** Why a GPU backend found by `auto` was left out (its toolkit is incomplete). */
  gpuSkipped?: string;
  ms: number;
}

const exe = process.platform === 'win32' ? '.exe' : '';

export function whisperSourceDir(root: string): string {
  return join(root, 'node_modules/nodejs-whisper/cpp/whisper.cpp');
}

/** The last builds' whole output: CMake's, the compiler's warnings among it. */
export function buildLogPath(root: string): string {
  return join(root, 'build/whisper-build.log');
}

/** Where the worker and its backend modules are installed, side by side: build/whisper/, or `out`. */
export function workerDir(root: string, out?: string): string {
  return out ?? join(root, 'build/whisper');
}

export function workerBinaryPath(root: string, out?: string): string {
  return join(workerDir(root, out), `folio-whisper-worker${exe}`);
}

/** CMake's build tree (one per CPU choice, so switching back costs nothing); whisper-cli (bench only) runs from its bin/. */
export function cmakeBuildDir(root: string, cpu: CpuVariants = 'host', out?: string): string {
  return join(workerDir(root, out), cpu === 'all' ? 'cmake' : 'dev');
}

/** Where CMake writes binaries: bin/, or bin/Release/ with a multi-config generator (Visual Studio). */
function binDir(root: string, cpu: CpuVariants, out?: string): string {
  const bin = join(cmakeBuildDir(root, cpu, out), 'bin');
  return existsSync(join(bin, 'Release')) ? join(bin, 'Release') : bin;
}

export function cliBinaryPath(root: string, cpu: CpuVariants = 'host', out?: string): string {
  return join(binDir(root, cpu, out), `whisper-cli${exe}`);
}

const found = (cmd: string, args = ['--version']) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;

/** `FOLIO_WHISPER_GPU=auto|off|cuda|vulkan|metal`, or several joined by commas (`vulkan,cuda`); else refused. */
export function parseGpu(value: string | undefined): GpuChoice | 'auto' {
  if (!value || value === 'auto') return 'auto';
  const names = value.split(',').map((name) => name.trim());
  if (names.every((name) => ['cuda', 'vulkan', 'metal', 'off'].includes(name)))
    return (names as GpuBackend[]).filter((name) => name !== 'off');
  throw new Error(
    `FOLIO_WHISPER_GPU must be auto, off, or cuda, vulkan, metal joined by commas, not "${value}"`,
  );
}

const gpuLabel = (gpu: GpuChoice) => (gpu.length ? gpu.join(',') : 'off');

/** What `auto` builds on this machine: Metal on macOS, CUDA when nvcc runs, Vulkan when glslc runs, else none. */
export function detectGpu(platform = process.platform): GpuChoice {
  if (platform === 'darwin') return ['metal'];
  if (found('nvcc')) return ['cuda'];
  if (found('glslc')) return ['vulkan'];
  return [];
}

/** The CMake cache entries for a build; the same entries mean the same build tree can be reused as is. */
export function cmakeDefines(
  root: string,
  gpu: GpuChoice,
  cpu: CpuVariants = 'all',
  platform = process.platform,
  arch: string = process.arch,
) {
  const defines: Record<string, string> = {
    WHISPER_SOURCE_DIR: whisperSourceDir(root),
    CMAKE_BUILD_TYPE: 'Release',
    BUILD_SHARED_LIBS: 'ON', // GGML_BACKEND_DL needs ggml-base shared by the worker and every module
    GGML_BACKEND_DL: 'ON',
    GGML_NATIVE: 'OFF', // the build machine's flags would not run on every user's CPU
    // ggml's own thread pool instead of OpenMP: libgomp is not on every machine, and the package must need nothing
    // beyond the C and C++ runtimes and the GPU loaders (tests/electron/worker-libraries.test.ts)
    GGML_OPENMP: 'OFF',
    WHISPER_BUILD_TESTS: 'OFF',
    WHISPER_BUILD_EXAMPLES: 'ON', // only whisper-cli is ever built from them, for the bench
    WHISPER_BUILD_SERVER: 'OFF',
    WHISPER_SDL2: 'OFF',
    GGML_CUDA: gpu.includes('cuda') ? 'ON' : 'OFF',
    GGML_VULKAN: gpu.includes('vulkan') ? 'ON' : 'OFF',
  };
  // x86-64 (and arm64 Linux): one CPU module per instruction-set level, the best one chosen at run time.
  // Apple Silicon builds one arm64 module (every M-series chip has the same features).
  // a host build names Linux's /proc/cpuinfo flags; elsewhere it builds what ships
  if (cpu === 'host' && platform === 'linux') Object.assign(defines, hostCpuDefines());
  else if (platform !== 'darwin' || arch === 'x64') defines.GGML_CPU_ALL_VARIANTS = 'ON';
  if (platform === 'darwin') {
    defines.CMAKE_OSX_ARCHITECTURES = arch === 'x64' ? 'x86_64' : 'arm64';
    defines.GGML_METAL = gpu.includes('metal') ? 'ON' : 'OFF';
    defines.GGML_METAL_EMBED_LIBRARY = 'ON'; // the shaders inside the module: nothing else to ship
  }
  return defines;
}

/** GGML_NATIVE cannot be combined with backend modules, so a host build names this CPU's features itself. */
function hostCpuDefines(): Record<string, string> {
  const cpuinfo = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '';
  const has = (flag: string) => new RegExp(`\\b${flag}\\b`).test(cpuinfo);
  const defines: Record<string, string> = { GGML_CPU_ALL_VARIANTS: 'OFF' };
  for (const [define, flag] of [
    ['GGML_AVX', 'avx'],
    ['GGML_AVX2', 'avx2'],
    ['GGML_FMA', 'fma'],
    ['GGML_F16C', 'f16c'],
    ['GGML_BMI2', 'bmi2'],
  ])
    if (has(flag)) defines[define] = 'ON';
  return defines;
}

/**
 * Runs a build step with its output (the compiler's warnings among it) appended to `log`; `onLine` sees each line.
 * A failure's error holds the output's end and names the log.
 */
function run(cmd: string, args: string[], log: string, onLine?: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    mkdirSync(dirname(log), { recursive: true });
    const out = createWriteStream(log, { flags: 'a' });
    out.write(`$ ${cmd} ${args.join(' ')}\n`);
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding('utf8');
      createInterface({ input: stream }).on('line', (line) => {
        out.write(`${line}\n`);
        tail = `${tail}${line}\n`.slice(-6_000);
        onLine?.(line);
      });
    }
    child.on('error', (error) => {
      out.end();
      reject(error);
    });
    child.on('close', (code) => {
      out.end();
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `${cmd} ${args.join(' ')} failed (exit ${code}); the whole output is in ${log}:\n${tail}`,
          ),
        );
    });
  });
}

/**
 * Ninja's "[12/33] Building ..." lines as a few lines of progress: each quarter of the steps, and no more than
 * one line every few seconds.
 */
export function progressReporter(say: (line: string) => void, now = Date.now) {
  let lastQuarter = 0;
  let lastAt = 0;
  let lastTotal = 0;
  return (line: string) => {
    const step = /^\[(\d+)\/(\d+)\]/.exec(line);
    if (!step) return;
    const [done, total] = [Number(step[1]), Number(step[2])];
    if (total < 10) return; // a sub-build's few steps (the Vulkan shader generator's): not the build's progress
    if (total !== lastTotal) [lastTotal, lastQuarter] = [total, 0];
    const quarter = Math.floor((done / total) * 4);
    if (quarter <= lastQuarter || (quarter < 4 && now() - lastAt < 3_000)) return;
    lastQuarter = quarter;
    lastAt = now();
    say(`whisper: ${done}/${total} build steps (${quarter * 25} %)`);
  };
}

/** Configures only when the cache entries changed since the last configure: a no-change build skips CMake's ~15 s. */
async function configure(
  dir: string,
  root: string,
  defines: Record<string, string>,
  force: boolean,
): Promise<boolean> {
  const stamp = join(dir, 'folio-configure.json');
  const wanted = JSON.stringify(defines);
  const generator = existsSync(join(dir, 'build.ninja')) || found('ninja') ? ['-G', 'Ninja'] : [];
  const configured = existsSync(join(dir, 'CMakeCache.txt'));
  if (!force && configured && existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return false;
  mkdirSync(dir, { recursive: true });
  const args = Object.entries(defines).map(([k, v]) => `-D${k}=${v}`);
  await run(
    'cmake',
    [...(configured ? [] : generator), '-S', join(root, 'resources/whisper-worker'), '-B', dir, ...args],
    buildLogPath(root),
  );
  writeFileSync(stamp, wanted);
  return true;
}

/** The backend module and library names this configuration builds (ggml-base, ggml, ggml-cpu-haswell, ggml-cuda, ...). */
function builtLibraries(dir: string): string[] {
  const cache = readFileSync(join(dir, 'CMakeCache.txt'), 'utf8');
  const backends =
    /^GGML_AVAILABLE_BACKENDS:INTERNAL=(.*)$/m.exec(cache)?.[1].split(';').filter(Boolean) ?? [];
  return ['ggml-base', 'ggml', ...backends];
}

/**
 * The files to install for a library: the one name the loader asks for. A versioned shared library comes as
 * libggml.so -> libggml.so.0 -> libggml.so.0.15.1; the worker records the middle one (its soname).
 */
export function installNames(library: string, files: string[]): string[] {
  const escaped = library.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const mine = files.filter((f) =>
    new RegExp(`^(lib)?${escaped}(\\.so(\\.\\d+)*|(\\.\\d+)*\\.dylib|\\.dll)$`).test(f),
  );
  const soname = mine.filter((f) => /\.so\.\d+$/.test(f) || /^[^.]+\.\d+\.dylib$/.test(f));
  return soname.length > 0 ? soname : mine;
}

/** The CUDA runtime libraries the CUDA module links (NVIDIA's redistributables): the driver alone lacks them. */
const CUDA_RUNTIME = /^(lib)?(cudart|cublas|cublasLt)(64_\d+\.dll|\.so\.\d+)$/;

/**
 * With a CUDA module built, the toolkit's runtime libraries it needs, by the name the loader asks for, to ship beside
 * it: a machine with only NVIDIA's driver has none of them, and the module would not load.
 */
function cudaRuntime(dir: string): Array<[string, string]> {
  const cache = readFileSync(join(dir, 'CMakeCache.txt'), 'utf8');
  if (!/^GGML_CUDA:BOOL=ON$/m.test(cache)) return [];
  const entry = process.platform === 'win32' ? 'CUDAToolkit_BIN_DIR' : 'CUDAToolkit_LIBRARY_DIR';
  const libraries = new RegExp(`^${entry}:PATH=(.*)$`, 'm').exec(cache)?.[1];
  if (!libraries || !existsSync(libraries))
    throw new Error(`CUDA's libraries are not where CMake found them (${libraries})`);
  return readdirSync(libraries)
    .filter((name) => CUDA_RUNTIME.test(name))
    .map((name) => [name, join(libraries, name)]);
}

/** Copies the worker and its libraries into build/whisper/, replacing changed ones and removing stale modules. */
function install(root: string, cpu: CpuVariants, outDir?: string): string[] {
  const bin = binDir(root, cpu, outDir);
  const files = readdirSync(bin);
  const libraries = builtLibraries(cmakeBuildDir(root, cpu, outDir));
  const wanted = [`folio-whisper-worker${exe}`, ...libraries.flatMap((l) => installNames(l, files))];
  const out = workerDir(root, outDir);
  const sources = new Map(wanted.map((name) => [name, join(bin, name)]));
  for (const [name, path] of cudaRuntime(cmakeBuildDir(root, cpu, outDir))) sources.set(name, path);
  wanted.push(...[...sources.keys()].filter((name) => !wanted.includes(name)));
  for (const name of wanted) {
    const source = sources.get(name) as string;
    const from = statSync(source);
    const to = join(out, name);
    const current = existsSync(to) ? statSync(to) : undefined;
    if (current && current.size === from.size && current.mtimeMs >= from.mtimeMs) continue;
    rmSync(to, { force: true }); // a running worker keeps its mapped copy; the new file gets a new inode
    copyFileSync(source, to);
  }
  // a module from an earlier configuration (a GPU backend since switched off) must not be loaded
  for (const name of readdirSync(out)) {
    if ((/^(lib)?ggml|^(lib)?whisper/.test(name) || CUDA_RUNTIME.test(name)) && !wanted.includes(name))
      rmSync(join(out, name), { force: true });
  }
  return wanted.map((name) => join(out, name));
}

/** Builds the requested targets; a second call with nothing changed takes a few seconds (ninja's no-op). */
export async function buildWhisperTargets(options: BuildOptions): Promise<BuildResult> {
  const started = Date.now();
  const asked = options.gpu ?? 'auto';
  let gpu = asked === 'auto' ? detectGpu() : asked;
  let gpuSkipped: string | undefined;
  const missing = ['cmake', 'c++'].find((tool) => !found(tool));
  if (missing) return { status: 'no-toolchain', missing, outputs: [], gpu: gpuLabel(gpu), ms: 0 };
  const { root } = options;
  mkdirSync(dirname(buildLogPath(root)), { recursive: true });
  writeFileSync(buildLogPath(root), ''); // the log holds this build's output only
  const { out } = options;
  const before = existsSync(workerBinaryPath(root, out)) ? statSync(workerBinaryPath(root, out)).mtimeMs : 0;
  const cpu = options.cpu ?? 'host';
  const dir = cmakeBuildDir(root, cpu, out);
  // a toolkit found by auto but incomplete (nvcc without cuBLAS) must not stop the CPU build, nor be retried on
  // every build (a configure costs seconds); a forced one fails the build, and --force tries again
  const skippedStamp = join(dir, 'folio-gpu-skipped.txt');
  if (asked === 'auto' && gpu.length && !options.force && existsSync(skippedStamp)) {
    gpuSkipped = readFileSync(skippedStamp, 'utf8');
    gpu = [];
  }
  try {
    await configure(
      dir,
      root,
      cmakeDefines(root, gpu, cpu, process.platform, options.arch),
      options.force ?? false,
    );
  } catch (error) {
    if (asked !== 'auto' || !gpu.length) throw error;
    const text = String((error as Error).message);
    const firstError = text.slice(text.indexOf('CMake Error')).split('\n').slice(1, 6).join(' ');
    gpuSkipped = `${gpuLabel(gpu)}: ${firstError.replace(/\s+/g, ' ').trim() || 'configure failed'}`;
    writeFileSync(skippedStamp, gpuSkipped);
    gpu = [];
    await configure(dir, root, cmakeDefines(root, gpu, cpu, process.platform, options.arch), true);
  }
  const targets = options.targets.map((t) => (t === 'worker' ? 'folio-whisper-worker' : 'whisper-cli'));
  const jobs = String(options.jobs ?? availableParallelism());
  const say = options.say ?? (() => {});
  const log = buildLogPath(root);
  const progress = progressReporter(say);
  let announced = false;
  await run(
    'cmake',
    ['--build', dir, '--config', 'Release', '-j', jobs, '--target', ...targets],
    log,
    (line) => {
      if (!announced && /^\[1\/\d+\]/.test(line)) {
        announced = true;
        say(`whisper: building the transcription engine (compiler output in ${log})`);
      }
      progress(line);
    },
  );
  const outputs = install(root, cpu, out);
  outputs.push(installVadModel(root, workerDir(root, out))); // whisper.cpp's VAD reads it beside the worker
  if (options.targets.includes('cli')) outputs.push(cliBinaryPath(root, cpu, out));
  const after = statSync(workerBinaryPath(root, out)).mtimeMs;
  const status = after === before ? ('up-to-date' as const) : ('built' as const);
  return { status, outputs, gpu: gpuLabel(gpu), gpuSkipped, ms: Date.now() - started };
}
