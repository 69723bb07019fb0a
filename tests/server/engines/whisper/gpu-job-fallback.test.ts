// A GPU that fails in the middle of a job (issue #23): the worker dies (a crash, the device's memory ran out) or
// whisper.cpp reports a failed computation; the engine restarts the worker on the CPU, runs the same job again
// there once, and says why. There is no GPU here: a fake worker reports one and fails its job, and runs the real
// worker when asked for the CPU.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createWhisperEngine, defaultWorkerPath } from '../../../../server/engines/whisper/whisper-engine.js';
import { crashReason } from '../../../../server/engines/whisper/worker-process.js';
import { startTestServer } from '../../../helpers/server.js';
import {
  engineBuilt,
  expectWellFormedTranscript,
  type Json,
  makeFixtures,
  queueTranscript,
  waitForStatus,
} from '../../../helpers/transcription.js';

const loaded = (kind: 'cpu' | 'gpu') =>
  JSON.stringify({
    event: 'loaded',
    dtw: false,
    device: {
      kind,
      backend: kind === 'gpu' ? 'CUDA' : 'CPU',
      name: `Fake ${kind}`,
      threads: 2,
      simd: '',
      features: [],
    },
    fallback: null,
    gpuDevices: kind === 'gpu' ? 1 : 0,
  });

// shell snippets run after the worker read its first command ($line)
const realCpuWorker = `exec '${defaultWorkerPath}' "$@" --modules '${dirname(defaultWorkerPath)}'`;
const crash = `echo 'CUDA error: out of memory' >&2; kill -SEGV $$`;
const jobId = String.raw`id=$(echo "$line" | sed 's/.*"id":"\([^"]*\)".*/\1/')`;
const computeError = `${jobId}; echo '{"event":"error","id":"'"$id"'","code":"failed","message":"whisper_full failed with code -6"}'; while read -r line; do :; done`;
const fakeCpu = (onJob: string) => `echo '${loaded('cpu')}'; read -r line; ${onJob}; exit`;
// a CPU job that reports progress, then never finishes nor heeds a cancel: only the kill after the grace stops it
const stuck = `${jobId}; echo '{"event":"progress","id":"'"$id"'","percent":10}'; while read -r line; do :; done`;

/** A worker that loads on a "GPU" and fails its first job there; started with `--device cpu`, it runs `onCpu`. */
async function fakeGpuWorker(dir: string, onGpuJob: string, onCpu = realCpuWorker): Promise<string> {
  const path = join(dir, 'gpu-worker');
  const script = [
    '#!/bin/sh',
    `echo "$*" >> '${join(dir, 'starts')}'`,
    `case " $* " in *" --device cpu "*) ${onCpu};; esac`,
    `echo '${loaded('gpu')}'`,
    'read -r line',
    onGpuJob,
  ];
  await writeFile(path, `${script.join('\n')}\n`, { mode: 0o755 });
  return path;
}

const starts = async (dir: string) => (await readFile(join(dir, 'starts'), 'utf8')).trim().split('\n');

async function withFakeGpu(
  onGpuJob: string,
  onCpu: string | undefined,
  test: (
    engine: ReturnType<typeof createWhisperEngine>,
    fx: ReturnType<typeof makeFixtures>,
  ) => Promise<void>,
  stallMs?: number,
) {
  const fx = makeFixtures();
  const workerPath = await fakeGpuWorker(fx.dir, onGpuJob, onCpu);
  const engine = createWhisperEngine({
    modelPath: fx.model,
    threads: 2,
    tmpDir: join(fx.dir, 'tmp'),
    workerPath,
    stallMs,
  });
  try {
    await test(engine, fx);
  } finally {
    await engine.close();
    fx.cleanup();
  }
}

describe.skipIf(!engineBuilt)('a GPU that fails during a job', () => {
  it('a worker that dies mid-job on the GPU is restarted on the CPU, and the job completes there', async () => {
    await withFakeGpu(crash, undefined, async (engine, fx) => {
      const result = await engine.transcribeFile(fx.speech);
      expect(result.segments.length).toBeGreaterThan(0);
      expect(result.segments.map((s) => s.id)).toEqual(result.segments.map((_, i) => i));
      expect(engine.device()).toMatchObject({ preference: 'auto', device: { kind: 'cpu', backend: 'CPU' } });
      expect(engine.device()?.fallback).toBe(
        'the GPU failed during a job: whisper worker exited (signal SIGSEGV) during a job: CUDA error: out of memory',
      );
      // the worker stays on the CPU: the next job needs no new start
      await engine.transcribeFile(fx.speech);
      const started = await starts(fx.dir);
      expect(started).toHaveLength(2);
      expect(started[0]).toMatch(/--device auto/);
      expect(started[1]).toMatch(/--device cpu/);
    });
  });

  it('a failed computation on the GPU is run again on the CPU', async () => {
    await withFakeGpu(computeError, undefined, async (engine, fx) => {
      const result = await engine.transcribeFile(fx.speech);
      expect(result.segments.length).toBeGreaterThan(0);
      expect(engine.device()?.device.kind).toBe('cpu');
      expect(engine.device()?.fallback).toMatch(
        /^the GPU failed during a job: .*whisper_full failed with code -6/,
      );
    });
  });

  it('a GPU job that stops making progress is ended after the stall limit and run again on the CPU', async () => {
    await withFakeGpu(
      stuck,
      undefined,
      async (engine, fx) => {
        const result = await engine.transcribeFile(fx.speech);
        expect(result.segments.length).toBeGreaterThan(0);
        expect(engine.device()?.device.kind).toBe('cpu');
        expect(engine.device()?.fallback).toBe(
          'the GPU failed during a job: the transcription made no progress for 5 s, so it was stopped',
        );
      },
      // The limit holds for the real CPU run after it too: under a busy CI machine's load, its first progress
      // report (after encoding the first window) came more than 1 s after the job began.
      5_000,
    );
  });

  it('a GPU that aborts says ggml’s own message, not the last line of the backtrace after it', async () => {
    const abort = [
      `echo '{"event":"fatal","message":"ggml-cuda.cu:96: CUDA error: an illegal memory access was encountered"}'`,
      `printf '#0 0x00007f in ggml_print_backtrace\\n#1 0x00007f in ggml_abort\\n' >&2`,
      'kill -ABRT $$',
    ].join('; ');
    await withFakeGpu(abort, undefined, async (engine, fx) => {
      await engine.transcribeFile(fx.speech);
      expect(engine.device()?.fallback).toBe(
        'the GPU failed during a job: whisper worker exited (signal SIGABRT) during a job: ggml-cuda.cu:96: CUDA error: an illegal memory access was encountered',
      );
    });
  });

  it('without ggml’s message, the reason is the assertion in the crash output, not a backtrace line', () => {
    const stderr = [
      'whisper_init_state: compute buffer (decode) =   98.32 MB',
      '/src/ggml/src/ggml-cuda/ggml-cuda.cu:2387: GGML_ASSERT(ggml_is_contiguous(src0)) failed',
      '/lib/libggml-base.so.0(+0x16e1b) [0x7f2c1c416e1b]',
      '#3  0x00007f2c1c4171d4 in ggml_abort () from /lib/libggml-base.so.0',
    ].join('\n');
    expect(crashReason(stderr)).toBe(
      ': /src/ggml/src/ggml-cuda/ggml-cuda.cu:2387: GGML_ASSERT(ggml_is_contiguous(src0)) failed',
    );
    expect(crashReason('')).toBe('');
  });

  it('a job that fails on the CPU as well fails as before, after one retry', async () => {
    await withFakeGpu(crash, fakeCpu(crash), async (engine, fx) => {
      await expect(engine.transcribeFile(fx.speech)).rejects.toMatchObject({ code: 'worker_crashed' });
      expect(await starts(fx.dir)).toHaveLength(2);
    });
  });

  it('a cancel during the retry on the CPU stops the job', async () => {
    await withFakeGpu(crash, fakeCpu(stuck), async (engine, fx) => {
      const controller = new AbortController();
      const job = engine.transcribeFile(fx.speech, {
        signal: controller.signal,
        onProgress: () => controller.abort(), // the first progress comes from the CPU
      });
      await expect(job).rejects.toMatchObject({ name: 'AbortError' });
      expect(engine.device()?.device.kind).toBe('cpu');
    });
  });

  it('the transcript records the CPU, and the models overview says why the GPU is not used', async () => {
    const fx = makeFixtures();
    const dir = await mkdtemp(join(tmpdir(), 'folio-gpu-worker-'));
    const srv = await startTestServer({
      whisperModel: fx.model,
      whisperWorker: await fakeGpuWorker(dir, crash),
    });
    try {
      const key = await srv.createKey({ services: ['transcription'] });
      const queued = await queueTranscript(srv, key, fx.speechBytes);
      const done = await waitForStatus(srv, key, queued.id, ['completed', 'failed']);
      expectWellFormedTranscript(done);
      expect(done.device).toMatch(/^CPU: /);
      const models = (await (await srv.as({ bearer: key })('/api/v1/models')).json()) as Json;
      expect(models.device).toMatchObject({ kind: 'cpu', label: done.device, preference: 'auto' });
      expect(models.device.fallback).toMatch(/^the GPU failed during a job: .*CUDA error: out of memory$/);
    } finally {
      await srv.close();
      fx.cleanup();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
