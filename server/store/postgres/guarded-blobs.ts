// Blobs under a dropped workspace refuse writes on every node: the registry is asked before a write and again
// after it. A drop marks the workspace before it deletes the prefix, so a write that finished before the mark
// is deleted by the drop, and one that finished after it sees the mark and deletes itself. Only the check after
// the write decides; the one before saves sending bytes that would be deleted.
import { ScopeGone } from '../errors.js';
import { workspaceOfKey } from '../scope-gate.js';
import type { BlobStore } from '../types.js';

export function guardBlobs(
  blobs: BlobStore,
  isDropped: (workspaceId: string) => Promise<boolean>,
  { checkBefore = true } = {},
): BlobStore {
  async function guarded<R>(key: string, write: () => Promise<R>): Promise<R> {
    const scope = workspaceOfKey(key);
    if (!scope) return write();
    if (checkBefore && (await isDropped(scope))) throw new ScopeGone(scope);
    const result = await write();
    if (await isDropped(scope)) {
      await blobs.delete(key);
      throw new ScopeGone(scope);
    }
    return result;
  }

  return {
    ...blobs,
    put: (key, source) => guarded(key, () => blobs.put(key, source)),
    putFile: (key, path) => guarded(key, () => blobs.putFile(key, path)),
  };
}
