// Where Whisper runs (issue #23): the device `GET /api/v1/models` reports, the owner's choice in settings and the
// label a transcript keeps. Every field is optional here because a server from before #23 sends none of them;
// the screens show nothing for what is absent rather than guessing.
import type { ModelOverview, Transcript } from './types';

export type DevicePreference = 'auto' | 'cpu' | 'gpu';

export type TranscriptionDevice = {
  kind: 'cpu' | 'gpu';
  /** CPU, CUDA, Vulkan or Metal. */
  backend: string;
  name: string;
  /** "GPU: NVIDIA GeForce RTX 4070 (CUDA)", "CPU: 8 threads, AVX2". */
  label: string;
  preference: DevicePreference;
  /** Why a GPU was not used when one was asked for. */
  fallback: string | null;
};

export type ModelsWithDevice = ModelOverview & {
  device?: TranscriptionDevice | null;
  gpuAvailable?: boolean;
};

export const transcriptDevice = (t: Transcript): string | null =>
  (t as Transcript & { device?: string | null }).device ?? null;

export const PREFERENCE_LABELS: Record<DevicePreference, string> = {
  auto: 'Automatic',
  cpu: 'CPU',
  gpu: 'GPU',
};
