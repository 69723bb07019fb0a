import type { DevicePreference } from '../../../api/transcription-device';
import { type Choice, ChoiceCards } from '../../../ui/choice-cards';
import { useTranscriptionDevice } from '../api/get-transcription-device';

/** Automatic, CPU or GPU for Whisper, with the device in use now and whether the saved choice waits for a restart. */
export function DeviceChoice({
  value,
  onChange,
  running,
  saved,
}: {
  value: DevicePreference;
  onChange: (value: DevicePreference) => void;
  running: DevicePreference;
  saved: DevicePreference | undefined;
}) {
  const { data } = useTranscriptionDevice();
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
      description={describeDevice(data?.device?.label, saved !== undefined && saved !== running)}
    />
  );
}

/** "In use now: CPU: 2 threads, AVX2." and, while a saved choice waits for a restart, that it does. */
function describeDevice(label: string | undefined, waiting: boolean) {
  if (!label && !waiting) return undefined;
  return (
    <span data-testid="device-in-use">
      {label && (
        <>
          In use now: <strong>{label}</strong>.{' '}
        </>
      )}
      {waiting && 'The saved choice applies when Folio restarts.'}
    </span>
  );
}
