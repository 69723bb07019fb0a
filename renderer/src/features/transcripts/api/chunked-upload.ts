// Long recordings: the chunked upload (docs/transcription.md, "Chunked upload"), parts sent three at a time with
// progress, through the session's own paths (keys use /api/v1/uploads/chunked: docs/security.md).
import { api } from '../../../api/client';
import type { ChunkedUpload, CompletedUpload, Transcript } from '../../../api/types';
import { sendWithProgress, type UploadProgress } from '../../../api/upload';
import type { Task } from './transcribe-file';

const BASE = '/api/v1/session-uploads/chunked';
const PART_SIZE = 8 << 20;
const PARALLEL = 3;

export async function uploadChunked(
  file: File,
  onProgress: (p: UploadProgress) => void,
  signal: AbortSignal,
  task: Task = 'transcribe',
): Promise<Transcript> {
  const upload = await api<ChunkedUpload>(BASE, {
    method: 'POST',
    body: {
      filename: file.name,
      contentType: file.type || 'application/octet-stream',
      size: file.size,
      partSize: PART_SIZE,
      task,
    },
    signal,
  });
  const sent = new Array<number>(upload.partCount).fill(0);
  const report = () => onProgress({ loaded: sent.reduce((a, b) => a + b, 0), total: file.size });
  const pending = Array.from({ length: upload.partCount }, (_, i) => i);
  const worker = async () => {
    for (let index = pending.shift(); index !== undefined; index = pending.shift()) {
      const part = file.slice(index * upload.partSize, Math.min(file.size, (index + 1) * upload.partSize));
      await sendWithProgress({
        url: `${BASE}/${upload.uploadId}/parts/${index}`,
        method: 'PUT',
        body: part,
        headers: { 'Content-Type': 'application/octet-stream' },
        signal,
        onProgress: (p) => {
          sent[index as number] = p.loaded;
          report();
        },
      });
      sent[index] = part.size;
      report();
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(PARALLEL, upload.partCount) }, worker));
    const done = await api<CompletedUpload>(`${BASE}/${upload.uploadId}/complete`, {
      method: 'POST',
      signal,
    });
    return done.transcript;
  } catch (error) {
    void api(`${BASE}/${upload.uploadId}`, { method: 'DELETE' }).catch(() => undefined);
    throw error;
  }
}
