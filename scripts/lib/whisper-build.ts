/**
 * Builds the worker (resources/whisper-worker/) with CMake on whisper.cpp 1.9.1, whose source ships in the
 * nodejs-whisper npm package (its install script is never run). ggml's backends are loadable modules
 * (GGML_BACKEND_DL): every x86-64 CPU variant plus a GPU module where its toolchain is found, all copied beside
 * the worker in build/whisper/, where it loads them at run time (DEVELOPERS.md "Transcription engine").
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

export type WhisperTarget = 'worker' | 'cli';
export type GpuBackend = 'cuda' | 'vulkan' | 'metal' | 'off';
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
  gpu?: GpuBackend | 'auto';
  /** FOLIO_WHISPER_CPU; default all. */
  cpu?: CpuVariants;
  jobs?: number;
}
export interface BuildResult {
  status: 'built' | 'up-to-date' | 'no-toolchain';
  outputs: string[];
  gpu: GpuBackend;
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

/** Where the worker and its backend modules are installed, side by side. */
export function workerDir(root: string): string {
  return join(root, 'build/whisper');
}

export function workerBinaryPath(root: string): string {
  return join(workerDir(root), `folio-whisper-worker${exe}`);
}

/** CMake's build tree (one per CPU choice, so switching back costs nothing); whisper-cli (bench only) runs from its bin/. */
export function cmakeBuildDir(root: string, cpu: CpuVariants = 'host'): string {
  return join(root, cpu === 'all' ? 'build/whisper/cmake' : 'build/whisper/dev');
}

/** Where CMake writes binaries: bin/, or bin/Release/ with a multi-config generator (Visual Studio). */
function binDir(root: string, cpu: CpuVariants): string {
  const bin = join(cmakeBuildDir(root, cpu), 'bin');
  return existsSync(join(bin, 'Release')) ? join(bin, 'Release') : bin;
}

export function cliBinaryPath(root: string, cpu: CpuVariants = 'host'): string {
  return join(binDir(root, cpu), `whisper-cli${exe}`);
}

const found = (cmd: string, args = ['--version']) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;

/** `FOLIO_WHISPER_GPU=cuda|vulkan|metal|off|auto`; anything else is refused. */
export function parseGpu(value: string | undefined): GpuBackend | 'auto' {
  if (!value) return 'auto';
  if (['cuda', 'vulkan', 'metal', 'off', 'auto'].includes(value)) return value as GpuBackend | 'auto';
  throw new Error(`FOLIO_WHISPER_GPU must be cuda, vulkan, metal, off or auto, not "${value}"`);
}

/** What `auto` builds on this machine: Metal on macOS, CUDA when nvcc runs, Vulkan when glslc runs, else none. */
export function detectGpu(platform = process.platform): GpuBackend {
  if (platform === 'darwin') return 'metal';
  if (found('nvcc')) return 'cuda';
  if (found('glslc')) return 'vulkan';
  return 'off';
}

/** The CMake cache entries for a build; the same entries mean the same build tree can be reused as is. */
export function cmakeDefines(
  root: string,
  gpu: GpuBackend,
  cpu: CpuVariants = 'all',
  platform = process.platform,
  arch = process.arch,
) {
  const defines: Record<string, string> = {
    WHISPER_SOURCE_DIR: whisperSourceDir(root),
    CMAKE_BUILD_TYPE: 'Release',
    BUILD_SHARED_LIBS: 'ON', // GGML_BACKEND_DL needs ggml-base shared by the worker and every module
    GGML_BACKEND_DL: 'ON',
    GGML_NATIVE: 'OFF', // the build machine's flags would not run on every user's CPU
    WHISPER_BUILD_TESTS: 'OFF',
    WHISPER_BUILD_EXAMPLES: 'ON', // only whisper-cli is ever built from them, for the bench
    WHISPER_BUILD_SERVER: 'OFF',
    WHISPER_SDL2: 'OFF',
    GGML_CUDA: gpu === 'cuda' ? 'ON' : 'OFF',
    GGML_VULKAN: gpu === 'vulkan' ? 'ON' : 'OFF',
  };
  // x86-64 (and arm64 Linux): one CPU module per instruction-set level, the best one chosen at run time.
  // Apple Silicon builds one arm64 module (every M-series chip has the same features).
  // a host build names Linux's /proc/cpuinfo flags; elsewhere it builds what ships
  if (cpu === 'host' && platform === 'linux') Object.assign(defines, hostCpuDefines());
  else if (platform !== 'darwin' || arch === 'x64') defines.GGML_CPU_ALL_VARIANTS = 'ON';
  if (platform === 'darwin') {
    defines.GGML_METAL = gpu === 'metal' ? 'ON' : 'OFF';
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

function run(cmd: string, args: string[], quiet = false): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', quiet ? 'pipe' : 'inherit', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output = (output + chunk).slice(-20_000);
    });
    child.stderr?.on('data', (chunk) => {
      output = (output + chunk).slice(-20_000);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${cmd} ${args.join(' ')} failed (exit ${code}):\n${output}`));
    });
  });
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
    true,
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

/** Copies the worker and its libraries into build/whisper/, replacing changed ones and removing stale modules. */
function install(root: string, cpu: CpuVariants): string[] {
  const bin = binDir(root, cpu);
  const files = readdirSync(bin);
  const libraries = builtLibraries(cmakeBuildDir(root, cpu));
  const wanted = [`folio-whisper-worker${exe}`, ...libraries.flatMap((l) => installNames(l, files))];
  const out = workerDir(root);
  for (const name of wanted) {
    const from = statSync(join(bin, name));
    const to = join(out, name);
    const current = existsSync(to) ? statSync(to) : undefined;
    if (current && current.size === from.size && current.mtimeMs >= from.mtimeMs) continue;
    rmSync(to, { force: true }); // a running worker keeps its mapped copy; the new file gets a new inode
    copyFileSync(join(bin, name), to);
  }
  // a module from an earlier configuration (a GPU backend since switched off) must not be loaded
  for (const name of readdirSync(out)) {
    if (/^(lib)?ggml|^(lib)?whisper/.test(name) && !wanted.includes(name))
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
  if (missing) return { status: 'no-toolchain', missing, outputs: [], gpu, ms: 0 };
  const { root } = options;
  const before = existsSync(workerBinaryPath(root)) ? statSync(workerBinaryPath(root)).mtimeMs : 0;
  const cpu = options.cpu ?? 'host';
  const dir = cmakeBuildDir(root, cpu);
  // a toolkit found by auto but incomplete (nvcc without cuBLAS) must not stop the CPU build, nor be retried on
  // every build (a configure costs seconds); a forced one fails the build, and --force tries again
  const skippedStamp = join(dir, 'folio-gpu-skipped.txt');
  if (asked === 'auto' && gpu !== 'off' && !options.force && existsSync(skippedStamp)) {
    gpuSkipped = readFileSync(skippedStamp, 'utf8');
    gpu = 'off';
  }
  try {
    await configure(dir, root, cmakeDefines(root, gpu, cpu), options.force ?? false);
  } catch (error) {
    if (asked !== 'auto' || gpu === 'off') throw error;
    const text = String((error as Error).message);
    const firstError = text.slice(text.indexOf('CMake Error')).split('\n').slice(1, 6).join(' ');
    gpuSkipped = `${gpu}: ${firstError.replace(/\s+/g, ' ').trim() || 'configure failed'}`;
    writeFileSync(skippedStamp, gpuSkipped);
    gpu = 'off';
    await configure(dir, root, cmakeDefines(root, gpu, cpu), true);
  }
  const targets = options.targets.map((t) => (t === 'worker' ? 'folio-whisper-worker' : 'whisper-cli'));
  const jobs = String(options.jobs ?? availableParallelism());
  await run('cmake', ['--build', dir, '--config', 'Release', '-j', jobs, '--target', ...targets]);
  const outputs = install(root, cpu);
  if (options.targets.includes('cli')) outputs.push(cliBinaryPath(root, cpu));
  const after = statSync(workerBinaryPath(root)).mtimeMs;
  const status = after === before ? ('up-to-date' as const) : ('built' as const);
  return { status, outputs, gpu, gpuSkipped, ms: Date.now() - started };
}
