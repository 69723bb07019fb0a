import { apiDownload } from '../../../api/client';
import type { ExportFormat } from '../../../api/types';

export const exportTranscript = (id: string, format: ExportFormat) =>
  apiDownload(`/api/v1/transcripts/${encodeURIComponent(id)}/export`, { format });
