// The upload queue: each file with its own progress, three at a time, each cancellable.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { toast } from 'sonner';
import { wsKey } from '../../../api/workspace-store';
import { uploadAsset } from '../api/upload-asset';

export type UploadItem = {
  id: number;
  name: string;
  size: number;
  loaded: number;
  status: 'queued' | 'uploading' | 'done' | 'failed' | 'cancelled';
  error?: string;
  assetId?: string;
};

const PARALLEL = 3;

export function useUploads() {
  const client = useQueryClient();
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
      uploadAsset(file, (p) => patch(id, { loaded: p.loaded }), controller.signal)
        .then((asset) => {
          patch(id, { status: 'done', loaded: file.size, assetId: asset.id });
          void client.invalidateQueries({ queryKey: wsKey('assets', 'list') });
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
  }, [client, patch]);

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
    () => setItems((list) => list.filter((i) => i.status === 'queued' || i.status === 'uploading')),
    [],
  );

  return { items, add, cancel, clearFinished };
}
