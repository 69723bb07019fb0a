import {
  type DevicePreference,
  PREFERENCE_LABELS,
  type TranscriptionDevice,
} from '../../../api/transcription-device';
import { type Choice, ChoiceCards } from '../../../ui/choice-cards';
import { useTranscriptionDevice } from '../api/get-transcription-device';

/**
 * Automatic, CPU or GPU for Whisper, with the device in use now. The server applies a saved choice at once: the
 * worker finishes the transcription it is running, then restarts on the new device (server/domains/settings).
 */
export function DeviceChoice({
  value,
  onChange,
  running,
}: {
  value: DevicePreference;
  onChange: (value: DevicePreference) => void;
  /** The preference in effect now (settings `running.whisperDevice`). */
  running: DevicePreference;
}) {
  const { data } = useTranscriptionDevice(running);
  const noGpu = data?.gpuAvailable === false;
  const choices: Choice<DevicePreference>[] = [
    { id: 'auto', label: 'Automatic', help: 'The GPU when one works, otherwise the CPU.' },
    { id: 'cpu', label: 'CPU', help: 'The processor, with the threads set below.' },
    {
      id: 'gpu',
      label: 'GPU',
      help: noGpu
        ? 'No GPU backend was found on this computer.'
        : 'CUDA, Vulkan or Metal; the CPU takes over if it fails.',
      isDisabled: noGpu && value !== 'gpu',
    },
  ];
  return (
    <ChoiceCards
      label="Run transcription on"
      name="whisperDevice"
      value={value}
      onChange={onChange}
      choices={choices}
      description={describeDevice(data?.device ?? null, running)}
    />
  );
}

/** "In use now: CPU: 2 threads, AVX2." and whether Whisper still has to move to the chosen device. */
function describeDevice(device: TranscriptionDevice | null, running: DevicePreference) {
  const moving = device && device.preference !== running;
  return (
    <span data-testid="device-in-use">
      {device ? (
        <>
          In use now: <strong>{device.label}</strong>.{' '}
        </>
      ) : (
        'Whisper picks its device when it first loads a model. '
      )}
      {moving
        ? `Switching to ${PREFERENCE_LABELS[running]} once Whisper is free.`
        : 'Saving applies a change at once; a transcription in progress finishes first.'}
    </span>
  );
}
