import { Cpu, Gpu, PackageX, Settings2, TriangleAlert } from 'lucide-react';
import type { ModelsWithDevice, TranscriptionDevice } from '../../../api/transcription-device';
import { ButtonLink } from '../../../ui/button';

/** The device Whisper runs on, and why it is not the GPU when one was asked for. Nothing on a server that does not say. */
export function DeviceStatus({ overview }: { overview: ModelsWithDevice }) {
  const { device, gpuAvailable } = overview;
  if (!device) return gpuAvailable === undefined ? null : <DeviceNotLoaded gpuAvailable={gpuAvailable} />;
  const Icon = device.kind === 'gpu' ? Gpu : Cpu;
  return (
    <div className="stack">
      <div className="device-card">
        <span className={`device-icon device-icon-${device.kind}`} aria-hidden>
          <Icon size={18} />
        </span>
        <div className="device-text">
          <span className="device-caption">Transcription runs on</span>
          <span className="device-label" data-testid="device-label">
            {device.label}
          </span>
          <span className="device-note">{describeChoice(device, gpuAvailable)}</span>
        </div>
        <ButtonLink href="/settings" size="sm" variant="ghost" icon={<Settings2 size={14} />}>
          Change device
        </ButtonLink>
      </div>
      {device.fallback && (
        <div className="callout warning" role="status">
          <TriangleAlert size={16} />
          <span>
            <strong>The GPU could not be used, so Whisper runs on the CPU.</strong>{' '}
            {asSentence(device.fallback)}
          </span>
        </div>
      )}
      {device.skipped.length > 0 && <SkippedModules skipped={device.skipped} />}
    </div>
  );
}

/** GPU modules shipped beside the worker that did not load (CUDA without its add-on's libraries, no Vulkan loader). */
function SkippedModules({ skipped }: { skipped: TranscriptionDevice['skipped'] }) {
  return (
    <div className="callout" role="status" data-testid="skipped-modules">
      <PackageX size={16} />
      <div className="skipped-modules">
        <strong>
          {skipped.length === 1
            ? 'A GPU module was not loaded.'
            : `${skipped.length} GPU modules were not loaded.`}
        </strong>
        <ul>
          {skipped.map(({ module, reason }) => (
            <li key={module}>
              <code>{module}</code>: {withPeriod(reason)}
              {/cudart|cublas/i.test(reason) &&
                ' It needs the CUDA add-on, which Folio’s releases offer beside the installer.'}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

/** Before the worker's first model load the server knows only whether a GPU backend exists. */
function DeviceNotLoaded({ gpuAvailable }: { gpuAvailable: boolean }) {
  return (
    <div className="device-card">
      <span className="device-icon" aria-hidden>
        <Cpu size={18} />
      </span>
      <div className="device-text">
        <span className="device-caption">Transcription device</span>
        <span className="device-label">Chosen when Whisper first loads a model</span>
        <span className="device-note">
          {gpuAvailable ? 'A GPU backend is available.' : 'No GPU backend was found on this computer.'}
        </span>
      </div>
      <ButtonLink href="/settings" size="sm" variant="ghost" icon={<Settings2 size={14} />}>
        Change device
      </ButtonLink>
    </div>
  );
}

/** "Set to GPU." without saying where: the desktop app sets it in Settings, a headless server with --whisper-device. */
function describeChoice(device: TranscriptionDevice, gpuAvailable: boolean | undefined): string {
  const chosen =
    device.preference === 'auto' ? 'Chosen automatically.' : `Set to ${device.preference.toUpperCase()}.`;
  if (gpuAvailable === false) return `${chosen} No GPU backend was found on this computer.`;
  return chosen;
}

/** A reason after a colon keeps its first letter (it often starts with a library's name) and ends with a period. */
function withPeriod(reason: string): string {
  const text = reason.trim();
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** The worker's reason (a lower-case clause) as a sentence of its own after the heading. */
function asSentence(reason: string): string {
  const text = reason.trim();
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;
}
