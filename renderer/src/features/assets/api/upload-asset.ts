import type { Asset } from '../../../api/types';
import { sendWithProgress, type UploadProgress } from '../../../api/upload';

/** POST /api/v1/uploads (multipart, field `file`) with upload progress and cancel. */
export const uploadAsset = (file: File, onProgress: (p: UploadProgress) => void, signal: AbortSignal) => {
  const form = new FormData();
  form.append('file', file, file.name);
  return sendWithProgress<Asset>({ url: '/api/v1/uploads', body: form, onProgress, signal });
};
