// The GPU path for real, on a Vulkan device that runs on the CPU (issue #34): the worker built with ggml's Vulkan
// module (.ci/run builds it into build/whisper-vulkan/ with .ci/vulkan-sdk.sh) loads the module, chooses Mesa's
// lavapipe, transcribes there, and falls back to the CPU when the GPU stalls. ggml skips a CPU-type Vulkan device
// unless GGML_VK_VISIBLE_DEVICES names it. lavapipe is slow (a 4 s clip takes about 40 s on the micro model), so
// these few tests are the only ones on it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWhisperEngine } from '../../../../server/engines/whisper/whisper-engine.js';
import { type Fixtures, makeFixtures } from '../../../helpers/transcription.js';

const vulkanWorker = fileURLToPath(
  new URL('../../../../build/whisper-vulkan/folio-whisper-worker', import.meta.url),
);
const built = existsSync(vulkanWorker) && existsSync(join(vulkanWorker, '../libggml-vulkan.so'));
if (!built)
  console.warn(`skipping the Vulkan tests: ${vulkanWorker} with libggml-vulkan.so not built (.ci/run)`);

describe.skipIf(!built)('the Vulkan module on lavapipe', () => {
  let fx: Fixtures;
  const visible = process.env.GGML_VK_VISIBLE_DEVICES;
  beforeAll(() => {
    fx = makeFixtures();
  });
  afterAll(() => {
    fx?.cleanup();
    if (visible === undefined) delete process.env.GGML_VK_VISIBLE_DEVICES;
    else process.env.GGML_VK_VISIBLE_DEVICES = visible;
  });

  const engine = (device: 'gpu' | 'cpu' | 'auto', stallMs?: number) =>
    createWhisperEngine({
      modelPath: fx.model,
      threads: 2,
      tmpDir: fx.dir,
      device,
      workerPath: vulkanWorker,
      stallMs,
    });

  it('a GPU asked for loads the module, chooses the Vulkan device and transcribes on it', async () => {
    process.env.GGML_VK_VISIBLE_DEVICES = '0';
    const gpu = engine('gpu');
    try {
      const result = await gpu.transcribeFile(fx.speech);
      expect(result.segments.length).toBeGreaterThan(0);
      expect(gpu.device()).toMatchObject({
        preference: 'gpu',
        fallback: null,
        gpuDevices: 1,
        device: { kind: 'gpu', backend: 'Vulkan' },
      });
      expect(gpu.device()?.device.name).toMatch(/llvmpipe|lavapipe/i);
    } finally {
      await gpu.close();
    }
  }, 240_000);

  it('a CPU preference runs on the CPU and never opens the Vulkan module', async () => {
    process.env.GGML_VK_VISIBLE_DEVICES = '0';
    const cpu = engine('cpu');
    try {
      await cpu.ready();
      expect(cpu.device()).toMatchObject({
        preference: 'cpu',
        fallback: null,
        gpuDevices: 0,
        device: { kind: 'cpu' },
      });
    } finally {
      await cpu.close();
    }
  });

  it('without a device ggml will use, auto runs on the CPU and says why', async () => {
    delete process.env.GGML_VK_VISIBLE_DEVICES; // lavapipe is a CPU-type device: skipped unless named
    const auto = engine('auto');
    try {
      await auto.ready();
      expect(auto.device()?.device.kind).toBe('cpu');
    } finally {
      await auto.close();
    }
  });

  it('a GPU job that stalls is ended and run again on the CPU, where it completes', async () => {
    process.env.GGML_VK_VISIBLE_DEVICES = '0';
    const gpu = engine('gpu', 3_000);
    try {
      await gpu.ready();
      expect(gpu.device()?.device.kind).toBe('gpu');
      const job = gpu.transcribeFile(fx.speech);
      await new Promise((r) => setTimeout(r, 1_500)); // decoded, and computing on the device
      process.kill(gpu.status().pid as number, 'SIGSTOP');
      const result = await job;
      expect(result.segments.length).toBeGreaterThan(0);
      expect(gpu.device()?.device.kind).toBe('cpu');
      expect(gpu.device()?.fallback).toBe(
        'the GPU failed during a job: the transcription made no progress for 3 s, so it was stopped',
      );
    } finally {
      await gpu.close();
    }
  }, 240_000);
});
