import type { TranscriptStatus } from '../../../api/types';
import { Badge, type Tone } from '../../../ui/badge';

const tones: Record<TranscriptStatus, Tone> = {
  pending: 'neutral',
  processing: 'info',
  completed: 'success',
  failed: 'danger',
};
const labels: Record<TranscriptStatus, string> = {
  pending: 'Queued',
  processing: 'Transcribing',
  completed: 'Done',
  failed: 'Failed',
};

export function StatusBadge({ status, progress }: { status: TranscriptStatus; progress?: number }) {
  return (
    <Badge tone={tones[status]} dot>
      {labels[status]}
      {status === 'processing' && progress !== undefined ? ` ${progress}%` : ''}
    </Badge>
  );
}
