/** The chunked-upload records of a workspace, and the statuses that refuse a part or a complete. */
import { conflict, gone, notFound } from '../../../http/errors.js';
import type { Store } from '../../../store/types.js';
import { chunkedUploads } from './collections.js';
import type { ChunkedUploadRecord } from './schema.js';

export function createUploadRecords(store: Store, now: () => number) {
  const uploads = (workspaceId: string) => store.collection(chunkedUploads, workspaceId);
  const isExpired = (upload: ChunkedUploadRecord) => Date.parse(upload.expiresAt) <= now();

  async function find(workspaceId: string, id: string): Promise<ChunkedUploadRecord> {
    const upload = await uploads(workspaceId).get(id);
    if (!upload) throw notFound('Upload');
    return upload;
  }

  /** The upload, refusing ones that can no longer take parts (410) or are finished (409). */
  async function findOpen(workspaceId: string, id: string): Promise<ChunkedUploadRecord> {
    const upload = await find(workspaceId, id);
    if (upload.status === 'aborted') throw gone('This upload was aborted');
    if (upload.status === 'expired' || (upload.status === 'open' && isExpired(upload)))
      throw gone('This upload has expired; begin a new one');
    return upload;
  }

  /** Throws why `current` (as just read) takes no more parts: 410 when gone, else 409. */
  async function refuseClosed(
    workspaceId: string,
    id: string,
    current: ChunkedUploadRecord | undefined,
  ): Promise<never> {
    await findOpen(workspaceId, id); // throws the right status
    throw conflict(
      current?.status === 'completing'
        ? 'This upload is being completed'
        : 'This upload is already completed',
    );
  }

  return { uploads, find, findOpen, isExpired, refuseClosed };
}

export type UploadRecords = ReturnType<typeof createUploadRecords>;
