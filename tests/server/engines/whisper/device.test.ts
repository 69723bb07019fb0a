// Where the worker runs (issue #23): a GPU asked for on a machine without one, or a GPU module that does not load,
// falls back to the CPU with the reason; the transcript still completes and names the CPU that made it.
import { execFileSync } from 'node:child_process';
import { copyFile, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasGpuModule } from '../../../../server/engines/whisper/device.js';
import { createWhisperEngine, defaultWorkerPath } from '../../../../server/engines/whisper/whisper-engine.js';
import { startTestServer } from '../../../helpers/server.js';
import {
  engineBuilt,
  expectWellFormedTranscript,
  type Json,
  makeFixtures,
  queueTranscript,
  waitForStatus,
} from '../../../helpers/transcription.js';

// The tests run on the CPU-only machines CI has; with a GPU module built here the fallback cases do not apply.
const cpuOnly = engineBuilt && !hasGpuModule(defaultWorkerPath);

/** A copy of build/whisper/ (worker, libraries, backend modules), as a packaged app ships it. */
async function copyWorkerDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-worker-dir-'));
  const from = dirname(defaultWorkerPath);
  for (const name of await readdir(from, { withFileTypes: true }))
    if (name.isFile()) await copyFile(join(from, name.name), join(dir, name.name));
  return dir;
}

describe.skipIf(!cpuOnly)('the device the whisper worker runs on', () => {
  it('a GPU asked for where none is built runs on the CPU, says why, and the transcript completes', async () => {
    const fx = makeFixtures();
    const engine = createWhisperEngine({ modelPath: fx.model, threads: 2, tmpDir: fx.dir, device: 'gpu' });
    try {
      expect(engine.device()).toBeUndefined(); // nothing to report before the worker loads the model
      const result = await engine.transcribeFile(fx.speech);
      expect(result.segments.length).toBeGreaterThan(0);
      const loaded = engine.device();
      expect(loaded?.device.kind).toBe('cpu');
      expect(loaded?.device.backend).toBe('CPU');
      expect(loaded?.device.threads).toBe(2);
      expect(loaded?.preference).toBe('gpu');
      expect(loaded?.fallback).toMatch(/built without a GPU backend/);
      expect(loaded?.gpuDevices).toBe(0);
    } finally {
      await engine.close();
      fx.cleanup();
    }
  });

  it('a GPU module that cannot load falls back to the CPU with the loader error as the reason', async () => {
    const fx = makeFixtures();
    const dir = await copyWorkerDir();
    await writeFile(join(dir, 'libggml-vulkan.so'), 'not a shared library');
    const engine = createWhisperEngine({
      modelPath: fx.model,
      threads: 1,
      tmpDir: fx.dir,
      workerPath: join(dir, 'folio-whisper-worker'),
    });
    try {
      const result = await engine.transcribeFile(fx.speech);
      expect(result.segments.length).toBeGreaterThan(0);
      const loaded = engine.device();
      expect(loaded?.device.kind).toBe('cpu');
      expect(loaded?.preference).toBe('auto');
      expect(loaded?.fallback).toMatch(/libggml-vulkan\.so did not load/);
      // and the module is named as skipped, with the loader's reason (what GET /api/v1/models and Models show)
      expect(loaded?.skipped).toEqual([
        { module: 'libggml-vulkan.so', reason: expect.stringMatching(/libggml-vulkan\.so/) },
      ]);
    } finally {
      await engine.close();
      fx.cleanup();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a CPU preference never looks for a GPU', async () => {
    const fx = makeFixtures();
    const engine = createWhisperEngine({ modelPath: fx.model, threads: 1, tmpDir: fx.dir, device: 'cpu' });
    try {
      await engine.ready();
      expect(engine.device()).toMatchObject({
        preference: 'cpu',
        fallback: null,
        skipped: [],
        device: { kind: 'cpu' },
      });
    } finally {
      await engine.close();
      fx.cleanup();
    }
  });

  it('the models overview names the device once the worker ran, and the transcript records it', async () => {
    const fx = makeFixtures();
    const srv = await startTestServer({ whisperModel: fx.model, whisperDevice: 'gpu', whisperThreads: 2 });
    try {
      const key = await srv.createKey({ services: ['transcription'] });
      const before = (await (await srv.as({ bearer: key })('/api/v1/models')).json()) as Json;
      expect(before.device).toBeNull();
      expect(before.gpuAvailable).toBe(false);
      const queued = await queueTranscript(srv, key, fx.speechBytes);
      expect(queued.device).toBeNull();
      const done = await waitForStatus(srv, key, queued.id, ['completed', 'failed']);
      expectWellFormedTranscript(done);
      expect(done.device).toMatch(/^CPU: 2 threads/);
      const after = (await (await srv.as({ bearer: key })('/api/v1/models')).json()) as Json;
      expect(after.device).toMatchObject({
        kind: 'cpu',
        backend: 'CPU',
        label: done.device,
        preference: 'gpu',
      });
      expect(after.device.fallback).toMatch(/GPU backend/);
      expect(after.device.skipped).toEqual([]); // no GPU module beside this worker
      expect(after.gpuAvailable).toBe(false);
    } finally {
      await srv.close();
      fx.cleanup();
    }
  });
});

// A GPU driver or module that crashes the worker while it registers (issue #34): a CPU preference never opens it,
// and another preference runs again on the CPU, saying why. A module whose constructor aborts stands for the driver.
describe.skipIf(!cpuOnly || process.platform !== 'linux')('a GPU module that crashes while it loads', () => {
  async function workerDirWithCrashingGpu(): Promise<string> {
    const dir = await copyWorkerDir();
    const source = join(dir, 'crash.c');
    await writeFile(
      source,
      '#include <stdlib.h>\n__attribute__((constructor)) static void crash(void) { abort(); }\n',
    );
    execFileSync('cc', ['-shared', '-fPIC', '-o', join(dir, 'libggml-vulkan.so'), source]);
    return dir;
  }

  it.each([
    ['cpu', null],
    [
      'auto',
      /^the worker crashed while loading the model on the GPU \(whisper worker exited \(signal SIGABRT\)/,
    ],
  ] as const)('with the preference %s, the transcript completes on the CPU', async (device, fallback) => {
    const fx = makeFixtures();
    const dir = await workerDirWithCrashingGpu();
    const engine = createWhisperEngine({
      modelPath: fx.model,
      threads: 1,
      tmpDir: fx.dir,
      device,
      workerPath: join(dir, 'folio-whisper-worker'),
    });
    try {
      const result = await engine.transcribeFile(fx.speech);
      expect(result.segments.length).toBeGreaterThan(0);
      expect(engine.device()?.device.kind).toBe('cpu');
      if (fallback) expect(engine.device()?.fallback).toMatch(fallback);
      else expect(engine.device()?.fallback).toBeNull();
    } finally {
      await engine.close();
      fx.cleanup();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
