/**
 * Checks a packaged Folio the way it ships (issue #34): its server started from the package's own files alone
 * (dist/server/main.js and the package's node_modules: no checkout, no tsx, no esbuild), then used through the API
 * as an agent would: a recording transcribed by the packaged worker on a generated model, a chart published and its
 * page, SVG and script served, the assets listed. The release workflow runs it on each platform's unpacked app
 * (Electron run as Node, which reads the asar); tests/electron/bundle.test.ts runs it on the file selection staged
 * here. Usage: tsx scripts/check-package.ts <unpacked app: dist/packages/linux-unpacked, .../mac-universal/Folio.app>
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { generateModel } from './lib/ggml-model.js';
import { toneWav } from './lib/wav.js';

export type PackagedServer = {
  /** The program that runs JavaScript: node, or the app's Electron binary (ELECTRON_RUN_AS_NODE is set). */
  runtime: string;
  /** dist/server/main.js inside the package (app.asar/dist/server/main.js in an asar). */
  main: string;
  /** The packaged worker, as the app hands it to its server. */
  worker: string;
};

/** Runs the checks; throws with what failed. Returns what it saw, for a log line. */
export async function checkPackagedServer({ runtime, main, worker }: PackagedServer): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'folio-package-check-'));
  const model = join(dir, 'micro.bin');
  generateModel(model, { preset: 'micro', seed: 7 });
  const child = spawn(runtime, [main], {
    cwd: dir, // nothing of a checkout around it
    env: {
      ...process.env,
      ELECTRON_RUN_AS_NODE: '1',
      FOLIO_PORT: '0',
      FOLIO_DATA_DIR: join(dir, 'data'),
      FOLIO_WHISPER_MODEL: model,
      FOLIO_WHISPER_WORKER: worker,
      FOLIO_WHISPER_THREADS: '2',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const seen: string[] = [];
  try {
    const { url, signIn } = await startLines(child);
    const cookie = await sessionCookie(signIn);
    const session = { cookie, origin: url };
    const created = await call(url, '/api/v1/api-keys', session, {
      method: 'POST',
      body: JSON.stringify({ name: 'package check', services: ['assets', 'transcription', 'charts'] }),
    });
    const key = { authorization: `Bearer ${created.secret}` };

    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(toneWav(4))], { type: 'audio/wav' }), 'tone.wav');
    const transcript = await call(url, '/api/v1/transcribe', key, { method: 'POST', body: form });
    if (transcript.status !== 'completed' || !Array.isArray(transcript.segments))
      throw new Error(`the transcript did not complete: ${JSON.stringify(transcript).slice(0, 300)}`);
    // VAD is on for files: a completed transcript with its summary means the packaged Silero weights loaded
    if (!transcript.vad)
      throw new Error('the transcript has no VAD summary: silero-vad-v5.ggml was not packaged');
    seen.push(
      `transcribed 4 s on ${transcript.device ?? 'the packaged worker'}, VAD skipped ${transcript.vad.skippedSeconds} s`,
    );

    const spec = {
      data: {
        values: [
          { a: 'x', b: 1 },
          { a: 'y', b: 3 },
        ],
      },
      mark: 'bar',
      encoding: { x: { field: 'a', type: 'nominal' }, y: { field: 'b', type: 'quantitative' } },
    };
    const chart = await call(url, '/api/v1/charts', key, {
      method: 'POST',
      body: JSON.stringify({ title: 'Package check', spec }),
    });
    for (const path of [`/c/${chart.slug}`, `/c/${chart.slug}.svg`, '/c/-/runtime.js']) {
      const res = await fetch(`${url}${path}`, { headers: { cookie } });
      if (res.status !== 200)
        throw new Error(`${path} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    }
    seen.push(`chart /c/${chart.slug}: page, SVG (render process) and runtime script served`);

    const assets = await call(url, '/api/v1/assets', key);
    if (!assets.data?.some((a: { filename: string }) => a.filename === 'tone.wav'))
      throw new Error(`the assets list lacks the recording: ${JSON.stringify(assets).slice(0, 300)}`);
    seen.push(`${assets.data.length} asset(s) listed`);
    return seen;
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The two start-up lines (docs/headless.md): where it listens, and the owner's sign-in link. */
function startLines(child: ChildProcess): Promise<{ url: string; signIn: string }> {
  return new Promise((resolve, reject) => {
    let url: string | undefined;
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the server did not start in 60 s:\n${output}`)), 60_000);
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      output += `${line}\n`;
      url ??= /^Folio listening on (\S+)$/.exec(line)?.[1];
      const signIn = /^Owner sign-in: (\S+)$/.exec(line)?.[1];
      if (url && signIn) {
        clearTimeout(timer);
        resolve({ url, signIn });
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`the server exited (${code}) before it listened:\n${output}`)),
    );
  });
}

async function sessionCookie(signIn: string): Promise<string> {
  const res = await fetch(signIn, { redirect: 'manual' });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('folio_session='));
  if (!cookie) throw new Error(`signing in answered ${res.status} and set no session`);
  return cookie.split(';')[0];
}

async function call(
  url: string,
  path: string,
  headers: Record<string, string>,
  init: RequestInit = {},
  // biome-ignore lint/suspicious/noExplicitAny: the check reads fields of whatever JSON comes back
): Promise<any> {
  const json: Record<string, string> =
    typeof init.body === 'string' ? { 'content-type': 'application/json' } : {};
  const res = await fetch(`${url}${path}`, { ...init, headers: { ...headers, ...json } });
  const body = await res.json().catch(() => ({}));
  if (!res.ok)
    throw new Error(`${init.method ?? 'GET'} ${path} answered ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

/** Where an unpacked app keeps its runtime, its asar and its worker, per platform (electron-builder's layouts). */
function unpackedApp(app: string): PackagedServer {
  if (app.endsWith('.app')) {
    const resources = join(app, 'Contents/Resources');
    return {
      runtime: join(app, 'Contents/MacOS/Folio'),
      main: join(resources, 'app.asar/dist/server/main.js'),
      worker: join(resources, 'whisper/folio-whisper-worker'),
    };
  }
  const windows = existsSync(join(app, 'Folio.exe'));
  return {
    runtime: join(app, windows ? 'Folio.exe' : 'folio'),
    main: join(app, 'resources/app.asar/dist/server/main.js'),
    worker: join(app, 'resources/whisper', windows ? 'folio-whisper-worker.exe' : 'folio-whisper-worker'),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const app = process.argv[2];
  if (!app || !existsSync(app)) {
    console.error('usage: tsx scripts/check-package.ts <unpacked app folder or Folio.app>');
    process.exit(2);
  }
  const target = unpackedApp(app);
  console.log(`check-package: ${app} (${readdirSync(app).length} entries); worker ${target.worker}`);
  for (const line of await checkPackagedServer(target)) console.log(`check-package: ${line}`);
}
