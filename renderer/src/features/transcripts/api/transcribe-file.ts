import type { Transcript } from '../../../api/types';
import { sendWithProgress, type UploadProgress } from '../../../api/upload';

/** POST /api/v1/transcribe: files up to 4 MiB, answered when the transcript is done. */
export const TRANSCRIBE_LIMIT = 4 << 20;

/** Transcribe as spoken, or translate into English (multilingual models only). */
export type Task = 'transcribe' | 'translate';

export const transcribeFile = (
  file: File,
  onProgress: (p: UploadProgress) => void,
  signal: AbortSignal,
  task: Task = 'transcribe',
) => {
  const form = new FormData();
  form.append('task', task);
  form.append('file', file, file.name);
  return sendWithProgress<Transcript>({ url: '/api/v1/transcribe', body: form, onProgress, signal }).catch(
    (error) => {
      // A transcript that failed (no model, undecodable audio) is still created: the list shows why.
      if (error?.body?.id) return error.body as Transcript;
      throw error;
    },
  );
};
