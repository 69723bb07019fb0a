// Uploads with progress and cancel: fetch cannot report upload progress, XMLHttpRequest can.
import { ApiError, toApiError, workspaceHeaders } from './client';

export type UploadProgress = { loaded: number; total: number };

export type UploadRequest = {
  url: string;
  method?: 'POST' | 'PUT';
  body: FormData | Blob;
  headers?: Record<string, string>;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
};

export function sendWithProgress<T>({
  url,
  method = 'POST',
  body,
  headers,
  onProgress,
  signal,
}: UploadRequest) {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    xhr.withCredentials = true;
    for (const [name, value] of Object.entries({
      ...workspaceHeaders(),
      Accept: 'application/json',
      ...headers,
    }))
      xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => onProgress?.({ loaded: event.loaded, total: event.total || 0 });
    xhr.onload = () => {
      const json = xhr.responseText ? safeJson(xhr.responseText) : undefined;
      if (xhr.status >= 200 && xhr.status < 300) resolve(json as T);
      else reject(toApiError(xhr.status, json, xhr.statusText));
    };
    xhr.onerror = () => reject(new ApiError(0, 'Network error: the server could not be reached'));
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    if (signal?.aborted) return xhr.abort();
    xhr.send(body);
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { error: text.slice(0, 200) };
  }
}
