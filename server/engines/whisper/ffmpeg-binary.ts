// Which ffmpeg decodes uploads (README "Audio decoding"). Uploads are untrusted, and ffmpeg's demuxers and decoders
// are where its security fixes land, so Folio runs a maintained one: the binary FOLIO_FFMPEG names (the user's
// choice, whatever its version), else the installed `ffmpeg` when it is 5.0 or newer. No copy ships with Folio: the npm
// packages that carry a current build download it from outside the registry at install time.
import { execFile } from 'node:child_process';
import { EngineError } from './errors.js';

export const MIN_FFMPEG_MAJOR = 5;
/** 5.0 came out in January 2022: a build dated from then on is at least as new. */
const MIN_SNAPSHOT_YEAR = 2022;

export type Ffmpeg = { path: string; version: string; source: 'FOLIO_FFMPEG' | 'PATH' | 'Homebrew' };
/** `ffmpeg -version`'s output for a path; rejects when it cannot be run. */
export type ProbeFfmpeg = (path: string) => Promise<string>;

const INSTALL =
  'install ffmpeg 5.0 or newer (apt-get install ffmpeg, brew install ffmpeg, winget install ffmpeg) or set FOLIO_FFMPEG to the path of one';

/** The version in `ffmpeg -version`'s banner, its major number where it has one, and whether it is 5.0 or newer. */
export function ffmpegVersion(
  banner: string,
): { version: string; major?: number; recent: boolean } | undefined {
  const version = /^ffmpeg version (\S+)/.exec(banner)?.[1];
  if (!version) return undefined;
  const release = /^n?(\d+)\.\d+/.exec(version);
  if (release) return { version, major: Number(release[1]), recent: Number(release[1]) >= MIN_FFMPEG_MAJOR };
  const dated = /^(\d{4})-\d{2}-\d{2}-git-/.exec(version); // gyan.dev's git builds
  return { version, recent: Boolean(dated && Number(dated[1]) >= MIN_SNAPSHOT_YEAR) };
}

/**
 * The ffmpeg to run: `configured` (FOLIO_FFMPEG) when given, never falling back from it, else the installed one.
 * Throws an EngineError (503: the instance lacks a tool, the file is not at fault) that says what to install.
 */
export async function chooseFfmpeg(
  configured: string | undefined,
  probe = probeFfmpeg,
  platform = process.platform,
): Promise<Ffmpeg> {
  return configured ? configuredFfmpeg(configured, probe) : installedFfmpeg(probe, platform);
}

async function configuredFfmpeg(path: string, probe: ProbeFfmpeg): Promise<Ffmpeg> {
  const banner = await probe(path).catch((error: Error) => {
    throw missing(`FOLIO_FFMPEG (${path}) cannot be run: ${error.message}`);
  });
  const found = ffmpegVersion(banner);
  if (!found) throw missing(`FOLIO_FFMPEG (${path}) is not ffmpeg: its -version says no ffmpeg version`);
  return { path, version: found.version, source: 'FOLIO_FFMPEG' };
}

/** `ffmpeg` on PATH; on a Mac also Homebrew's, which an app opened from the Finder does not have on its PATH. */
async function installedFfmpeg(probe: ProbeFfmpeg, platform: NodeJS.Platform): Promise<Ffmpeg> {
  const homebrew = platform === 'darwin' ? ['/opt/homebrew/bin/ffmpeg', '/usr/local/bin/ffmpeg'] : [];
  for (const path of ['ffmpeg', ...homebrew]) {
    const found = ffmpegVersion(await probe(path).catch(() => ''));
    if (!found) continue;
    const where = path === 'ffmpeg' ? 'on PATH' : `at ${path}`;
    if (found.recent)
      return { path, version: found.version, source: path === 'ffmpeg' ? 'PATH' : 'Homebrew' };
    const age = found.major === undefined ? 'a build of unknown age' : `older than ${MIN_FFMPEG_MAJOR}.0`;
    throw missing(
      `the ffmpeg ${where} is ${found.version}, ${age}, so uploads are not decoded with it: ${INSTALL}`,
    );
  }
  throw missing(`no ffmpeg found on PATH: ${INSTALL}`);
}

/** chooseFfmpeg once: the answer is kept, a failure is not (ffmpeg installed later is found without a restart). */
export function ffmpegChooser(configured: string | undefined, probe = probeFfmpeg): () => Promise<Ffmpeg> {
  let chosen: Promise<Ffmpeg> | undefined;
  return () => {
    chosen ??= chooseFfmpeg(configured, probe).catch((error) => {
      chosen = undefined;
      throw error;
    });
    return chosen;
  };
}

/** How the choice reads on the console: `ffmpeg 5.1.9 (on PATH)`. */
export function describeFfmpeg({ path, version, source }: Ffmpeg): string {
  if (source === 'PATH') return `ffmpeg ${version} (on PATH)`;
  return `ffmpeg ${version} (${path}${source === 'FOLIO_FFMPEG' ? ', from FOLIO_FFMPEG' : ''})`;
}

function probeFfmpeg(path: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(path, ['-version'], { timeout: 10_000, maxBuffer: 1 << 20 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    ),
  );
}

const missing = (message: string) => new EngineError('decoder_missing', `could not decode audio: ${message}`);
