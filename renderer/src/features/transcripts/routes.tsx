import { useQueryClient } from '@tanstack/react-query';
import { FileAudio, Upload } from 'lucide-react';
import { useCallback, useMemo, useRef, useState } from 'react';
import { DropZone, FileTrigger } from 'react-aria-components';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import type { TranscriptStatus } from '../../api/types';
import type { UploadProgress } from '../../api/upload';
import { useUploadQueue } from '../../api/use-upload-queue';
import { wsKey } from '../../api/workspace-store';
import { Button } from '../../ui/button';
import { formatDuration, formatRelative } from '../../ui/format';
import { Page } from '../../ui/page';
import { ProgressBar } from '../../ui/progress';
import { Select } from '../../ui/select';
import { EmptyState, ErrorState, LoadingRows } from '../../ui/states';
import { UploadTray } from '../../ui/upload-tray';
import { uploadChunked } from './api/chunked-upload';
import { useTranscripts } from './api/list-transcripts';
import { type Task, TRANSCRIBE_LIMIT, transcribeFile } from './api/transcribe-file';
import { StatusBadge } from './components/status-badge';
import { TranscriptDetail } from './components/transcript-detail';
import './transcripts.css';

const STATUSES: { id: TranscriptStatus | 'all'; label: string }[] = [
  { id: 'all', label: 'All statuses' },
  { id: 'completed', label: 'Done' },
  { id: 'processing', label: 'Transcribing' },
  { id: 'pending', label: 'Queued' },
  { id: 'failed', label: 'Failed' },
];

const TASKS: { id: Task; label: string }[] = [
  { id: 'transcribe', label: 'Transcribe as spoken' },
  { id: 'translate', label: 'Translate to English' },
];

/** Up to 4 MiB goes straight to /transcribe; longer recordings go up in parts. */
const sendRecording = (
  file: File,
  onProgress: (p: UploadProgress) => void,
  signal: AbortSignal,
  task: Task,
) =>
  file.size <= TRANSCRIBE_LIMIT
    ? transcribeFile(file, onProgress, signal, task)
    : uploadChunked(file, onProgress, signal, task);

export default function TranscriptsScreen() {
  const { id } = useParams();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const status = (params.get('status') ?? 'all') as TranscriptStatus | 'all';
  const transcripts = useTranscripts(status === 'all' ? undefined : status);
  const all = useMemo(() => transcripts.data?.pages.flatMap((p) => p.data) ?? [], [transcripts.data]);
  const client = useQueryClient();
  const refresh = useCallback(
    () => void client.invalidateQueries({ queryKey: wsKey('transcripts', 'list') }),
    [client],
  );
  const [task, setTask] = useState<Task>('transcribe');
  const taskNow = useRef(task); // files queued now go with the choice made now
  taskNow.current = task;
  const send = useCallback(
    (file: File, onProgress: (p: UploadProgress) => void, signal: AbortSignal) =>
      sendRecording(file, onProgress, signal, taskNow.current),
    [],
  );
  const uploads = useUploadQueue(send, refresh);
  const [dropping, setDropping] = useState(false);

  const addFiles = (files: File[]) => {
    uploads.add(files);
    setTimeout(refresh, 300);
  };
  const uploadButton = (
    <FileTrigger
      allowsMultiple
      acceptedFileTypes={['audio/*', 'video/*']}
      onSelect={(files) => files && addFiles([...files])}
    >
      <Button variant="primary" icon={<Upload size={16} />}>
        Transcribe a recording
      </Button>
    </FileTrigger>
  );

  return (
    <Page
      title="Transcripts"
      description="Recordings transcribed on this machine by Whisper, with every word timed. Nothing leaves your computer."
      actions={uploadButton}
      toolbar={
        <>
          <Select
            label="Status"
            hideLabel
            options={STATUSES}
            value={status}
            onChange={(s) => setParams(s === 'all' ? {} : { status: s }, { replace: true })}
          />
          <Select label="New recordings" hideLabel options={TASKS} value={task} onChange={setTask} />
          <span className="spacer" />
          <span className="muted small">Drop audio or video files anywhere in the list</span>
        </>
      }
      panel={id && <TranscriptDetail id={id} onClose={() => navigate('/transcripts')} />}
    >
      <DropZone
        className={`asset-drop${dropping ? ' dropping' : ''}`}
        aria-label="Drop recordings to transcribe"
        onDropEnter={() => setDropping(true)}
        onDropExit={() => setDropping(false)}
        onDrop={async (event) => {
          setDropping(false);
          const files = await Promise.all(
            event.items
              .filter((i) => i.kind === 'file')
              .map((i) => (i as { getFile(): Promise<File> }).getFile()),
          );
          addFiles(files);
        }}
      >
        {transcripts.isPending ? (
          <LoadingRows label="Loading transcripts" />
        ) : transcripts.isError ? (
          <ErrorState error={transcripts.error} onRetry={() => transcripts.refetch()} />
        ) : all.length === 0 ? (
          <EmptyState
            icon={<FileAudio size={20} />}
            title={status === 'all' ? 'No transcripts yet' : 'Nothing with this status'}
            action={status === 'all' && uploadButton}
          >
            {status === 'all'
              ? 'Drop a recording here or choose one. Long recordings upload in parts; you can keep working meanwhile.'
              : 'Choose another status to see the rest.'}
          </EmptyState>
        ) : (
          <ul className="transcript-list" aria-label="Transcripts">
            {all.map((t) => (
              <li key={t.id}>
                <Link
                  to={`/transcripts/${t.id}`}
                  className={`transcript-row${t.id === id ? ' selected' : ''}`}
                  aria-current={t.id === id || undefined}
                >
                  <span className="row-icon" aria-hidden>
                    <FileAudio size={16} />
                  </span>
                  <span className="transcript-main">
                    <span className="transcript-text truncate">
                      {t.text?.trim() ||
                        (t.status === 'failed'
                          ? t.error
                          : t.status === 'completed'
                            ? 'No speech recognised'
                            : 'Waiting for the transcript…')}
                    </span>
                    <span className="transcript-meta">
                      {formatDuration(t.duration)} · {formatRelative(t.createdAt)}
                      {t.language ? ` · ${t.language}` : ''}
                      {t.task === 'translate' ? ' · translated to English' : ''}
                      {t.vad && t.vad.skippedSeconds >= 1
                        ? ` · ${formatDuration(t.vad.skippedSeconds)} silence skipped`
                        : ''}
                    </span>
                  </span>
                  <span className="transcript-status">
                    <StatusBadge status={t.status} progress={t.progress} />
                    {t.status === 'processing' && <ProgressBar label="Progress" value={t.progress} />}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
        {transcripts.hasNextPage && (
          <div className="load-more">
            <Button onPress={() => transcripts.fetchNextPage()} isDisabled={transcripts.isFetchingNextPage}>
              Load more
            </Button>
          </div>
        )}
      </DropZone>
      <UploadTray
        items={uploads.items}
        onCancel={uploads.cancel}
        onClear={uploads.clearFinished}
        processingLabel="Transcribing"
      />
    </Page>
  );
}
