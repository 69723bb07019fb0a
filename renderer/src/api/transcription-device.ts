// Where Whisper runs: the device `GET /api/v1/models` reports, the owner's choice in settings and the label a
// transcript keeps (server/engines/whisper/device.ts).
import type { ModelOverview, Transcript } from './types';

export type TranscriptionDevice = NonNullable<ModelOverview['device']>;
export type DevicePreference = TranscriptionDevice['preference'];
export type ModelsWithDevice = ModelOverview;

export const transcriptDevice = (t: Transcript): string | null => t.device ?? null;

export const PREFERENCE_LABELS: Record<DevicePreference, string> = {
  auto: 'Automatic',
  cpu: 'CPU',
  gpu: 'GPU',
};
