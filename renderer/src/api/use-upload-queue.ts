// An upload queue: each file with its own progress, three at a time, each cancellable. The feature says
// how one file is sent (multipart, chunked ...) and what to refresh when one lands.
import { useCallback, useRef, useState } from 'react';
import { toast } from 'sonner';
import type { UploadProgress } from './upload';

export type UploadItem = {
  id: number;
  name: string;
  size: number;
  loaded: number;
  status: 'queued' | 'uploading' | 'processing' | 'done' | 'failed' | 'cancelled';
  error?: string;
  resultId?: string;
};

export type SendFile<T> = (
  file: File,
  onProgress: (p: UploadProgress) => void,
  signal: AbortSignal,
) => Promise<T>;

const PARALLEL = 3;

export function useUploadQueue<T extends { id: string }>(send: SendFile<T>, onDone: (result: T) => void) {
  const [items, setItems] = useState<UploadItem[]>([]);
  const files = useRef(new Map<number, File>());
  const controllers = useRef(new Map<number, AbortController>());
  const next = useRef(0);
  const queue = useRef<number[]>([]);
  const running = useRef(0);

  const patch = useCallback(
    (id: number, change: Partial<UploadItem>) =>
      setItems((list) => list.map((i) => (i.id === id ? { ...i, ...change } : i))),
    [],
  );

  const pump = useCallback(() => {
    while (running.current < PARALLEL && queue.current.length) {
      const id = queue.current.shift()!;
      const file = files.current.get(id);
      if (!file) continue;
      const controller = new AbortController();
      controllers.current.set(id, controller);
      running.current++;
      patch(id, { status: 'uploading' });
      send(
        file,
        (p) => patch(id, { loaded: p.loaded, status: p.loaded >= file.size ? 'processing' : 'uploading' }),
        controller.signal,
      )
        .then((result) => {
          patch(id, { status: 'done', loaded: file.size, resultId: result.id });
          onDone(result);
        })
        .catch((error: Error) => {
          if (error.name === 'AbortError') patch(id, { status: 'cancelled' });
          else {
            patch(id, { status: 'failed', error: error.message });
            toast.error(`${file.name}: ${error.message}`);
          }
        })
        .finally(() => {
          running.current--;
          controllers.current.delete(id);
          files.current.delete(id);
          pump();
        });
    }
  }, [patch, send, onDone]);

  const add = useCallback(
    (list: File[]) => {
      const added = list.map((file) => {
        const id = next.current++;
        files.current.set(id, file);
        queue.current.push(id);
        return { id, name: file.name, size: file.size, loaded: 0, status: 'queued' as const };
      });
      setItems((current) => [...current, ...added]);
      pump();
    },
    [pump],
  );

  const cancel = useCallback(
    (id: number) => {
      controllers.current.get(id)?.abort();
      if (queue.current.includes(id)) {
        queue.current = queue.current.filter((q) => q !== id);
        files.current.delete(id);
        patch(id, { status: 'cancelled' });
      }
    },
    [patch],
  );

  const clearFinished = useCallback(
    () => setItems((list) => list.filter((i) => ['queued', 'uploading', 'processing'].includes(i.status))),
    [],
  );

  return { items, add, cancel, clearFinished };
}
