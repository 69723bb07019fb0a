/** Where Whisper runs: the owner's preference, the device the worker reports, and the label people read. */
import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SkippedModule, WorkerDevice } from './worker-protocol.js';

/** `auto` uses a GPU when one works, `gpu` asks for it (and says why not), `cpu` never uses one. */
export type DevicePreference = 'auto' | 'cpu' | 'gpu';
export const DEVICE_PREFERENCES = ['auto', 'cpu', 'gpu'] as const;

/** The worker's last `loaded` event: its device, and why a GPU was not used when one was asked for. */
export interface LoadedDevice {
  device: WorkerDevice;
  preference: DevicePreference;
  fallback: string | null;
  gpuDevices: number;
  /** GPU modules that did not load (empty with a CPU preference, which opens none) */
  skipped: SkippedModule[];
}

/** The device as `GET /api/v1/models` shows it. */
export interface TranscriptionDevice {
  kind: 'cpu' | 'gpu';
  backend: string;
  name: string;
  label: string;
  preference: DevicePreference;
  fallback: string | null;
  skipped: SkippedModule[];
}

/** "GPU: NVIDIA GeForce RTX 4070 (CUDA)", "CPU: 8 threads, AVX2". */
export function deviceLabel(device: WorkerDevice): string {
  if (device.kind === 'gpu') return `GPU: ${device.name} (${device.backend})`;
  const threads = `${device.threads} thread${device.threads === 1 ? '' : 's'}`;
  return `CPU: ${device.simd ? `${threads}, ${device.simd}` : threads}`;
}

export function describeDevice(loaded: LoadedDevice): TranscriptionDevice {
  const { device } = loaded;
  return {
    kind: device.kind,
    backend: device.backend,
    name: device.name,
    label: deviceLabel(device),
    preference: loaded.preference,
    fallback: loaded.fallback,
    skipped: loaded.skipped,
  };
}

/** Whether a GPU backend module (CUDA, Vulkan, Metal, ...) was built beside the worker binary. */
export function hasGpuModule(workerPath: string): boolean {
  try {
    return readdirSync(dirname(workerPath)).some((f) =>
      /^(lib)?ggml-(cuda|vulkan|metal|hip|sycl|opencl|musa)/.test(f),
    );
  } catch {
    return false;
  }
}
