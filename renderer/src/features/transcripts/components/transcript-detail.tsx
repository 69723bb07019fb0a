import { Download, RotateCw, Square, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { transcriptDevice } from '../../../api/transcription-device';
import type { Transcript } from '../../../api/types';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/dialog';
import { formatDateTime, formatDuration } from '../../../ui/format';
import { ActionMenu } from '../../../ui/menu';
import { ProgressBar } from '../../../ui/progress';
import { Properties, SidePanel } from '../../../ui/side-panel';
import { ErrorState, Skeleton } from '../../../ui/states';
import { useCancelTranscript } from '../api/cancel-transcript';
import { useDeleteTranscript } from '../api/delete-transcript';
import { exportTranscript } from '../api/export-transcript';
import { useAudioAsset } from '../api/get-audio-asset';
import { useTranscript } from '../api/get-transcript';
import { useRetryTranscript } from '../api/retry-transcript';
import { StatusBadge } from './status-badge';
import { TranscriptReader } from './transcript-reader';

const FORMATS = [
  { id: 'srt', label: 'SubRip (.srt)' },
  { id: 'vtt', label: 'WebVTT (.vtt)' },
  { id: 'txt', label: 'Plain text (.txt)' },
  { id: 'json', label: 'JSON with words (.json)' },
] as const;

export function TranscriptDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const transcript = useTranscript(id);
  const audio = useAudioAsset(transcript.data?.audioAssetId);
  const retry = useRetryTranscript();
  const cancel = useCancelTranscript();
  const remove = useDeleteTranscript();
  const [confirming, setConfirming] = useState(false);
  const t = transcript.data;
  const title = audio.data?.displayName ?? 'Transcript';
  const run = (action: Promise<unknown>, done: string) =>
    action.then(
      () => toast.success(done),
      (e: Error) => toast.error(e.message),
    );

  return (
    <SidePanel
      title={title}
      label="Transcript"
      onClose={onClose}
      actions={
        t && (
          <ActionMenu
            label="Export transcript"
            trigger={
              <Button size="sm" icon={<Download size={14} />}>
                Export
              </Button>
            }
            actions={FORMATS.map((f) => ({
              id: f.id,
              label: f.label,
              isDisabled: t.status !== 'completed',
              onAction: () => void exportTranscript(t.id, f.id).catch((e: Error) => toast.error(e.message)),
            }))}
          />
        )
      }
    >
      {transcript.isPending ? (
        <Skeleton height={160} />
      ) : transcript.isError ? (
        <ErrorState error={transcript.error} title="This transcript could not be loaded" />
      ) : (
        t && (
          <>
            <div className="row">
              <StatusBadge status={t.status} progress={t.progress} />
              <span className="muted small">{formatDuration(t.duration ?? audio.data?.duration)}</span>
              <span className="spacer" />
              {(t.status === 'failed' || t.status === 'pending') && (
                <Button
                  size="sm"
                  icon={<RotateCw size={14} />}
                  onPress={() => run(retry.mutateAsync(t.id), 'Queued again')}
                >
                  Retry
                </Button>
              )}
              {(t.status === 'processing' || t.status === 'pending') && (
                <Button
                  size="sm"
                  variant="ghost"
                  icon={<Square size={14} />}
                  onPress={() => run(cancel.mutateAsync(t.id), 'Cancelled')}
                >
                  Cancel
                </Button>
              )}
              <Button
                size="sm"
                variant="ghost"
                icon={<Trash2 size={14} />}
                onPress={() => setConfirming(true)}
              >
                Delete
              </Button>
            </div>
            {t.status === 'processing' && (
              <ProgressBar label="Transcription progress" value={t.progress} showValue />
            )}
            {t.status === 'failed' && (
              <div className="callout danger" role="alert">
                <span>{t.error === 'cancelled' ? 'Cancelled. Retry to transcribe it again.' : t.error}</span>
              </div>
            )}
            {t.status === 'completed' ? (
              <TranscriptReader transcript={t} audioUrl={audio.data?.urls.audio} />
            ) : (
              audio.data?.urls.audio && (
                // biome-ignore lint/a11y/useMediaCaption: not transcribed yet
                <audio
                  className="reader-audio"
                  controls
                  preload="metadata"
                  src={audio.data.urls.audio}
                  aria-label="Recording"
                />
              )
            )}
            <Properties
              items={[
                ['Task', t.task === 'translate' ? 'Translated to English' : 'Transcribed as spoken'],
                ['Language', t.language ?? '—'],
                ['Silence skipped', silenceSkipped(t.vad, t.duration)],
                ['Model', t.model ?? '—'],
                ...deviceRow(transcriptDevice(t)),
                ['Created', formatDateTime(t.createdAt)],
                ['Completed', formatDateTime(t.completedAt)],
                ['Words', t.words.length.toLocaleString()],
              ]}
            />
          </>
        )
      )}
      <ConfirmDialog
        title="Delete this transcript?"
        isOpen={confirming}
        onOpenChange={setConfirming}
        confirmLabel="Delete transcript and audio"
        isPending={remove.isPending}
        onConfirm={() =>
          remove.mutate(id, {
            onSuccess: () => {
              toast.success('Transcript deleted');
              setConfirming(false);
              onClose();
            },
            onError: (e) => toast.error(e.message),
          })
        }
      >
        <p>The transcript and its audio recording are both deleted. This cannot be undone.</p>
      </ConfirmDialog>
    </SidePanel>
  );
}

/** What voice activity detection left out, e.g. "8:00 of 10:00 (80 %)"; "Off" when it did not run. */
function silenceSkipped(vad: Transcript['vad'], duration: number | undefined): string {
  if (!vad) return 'Off (whole recording transcribed)';
  const share = duration ? ` (${Math.round((100 * vad.skippedSeconds) / duration)} %)` : '';
  return `${formatDuration(vad.skippedSeconds)} of ${formatDuration(duration)}${share}`;
}

/** Which device made it (issue #23); no row for transcripts from before the server recorded it. */
const deviceRow = (device: string | null): [string, string][] => (device ? [['Device', device]] : []);
