/**
 * The in-order fast path of a complete, where parts are written in place (part-store.ts `ranged`): while parts
 * arrive in order, each one is also fed, in its one stream pass, to a copy of a running whole-file SHA-256; the
 * copy becomes the running hash only when the part is verified and committed. Complete then finishes the hash
 * without reading the file again, or, when the running hash covers only parts 0..k-1, reads just parts k.. .
 * A re-PUT of an already hashed index with different bytes, or a restart (the hash lives in memory), drops the
 * running hash and complete reads the whole file once: correctness never depends on the fast path.
 */
import { createHash, type Hash } from 'node:crypto';
import { range } from './part-checks.js';
import type { PartStore } from './part-store.js';
import type { ChunkedUploadRecord } from './schema.js';

/** Parts 0..next-1 are in `hash` (their SHA-256s in `shas`). */
type Assembly = { next: number; hash: Hash; shas: string[]; busy: boolean; broken: boolean };

export function createAssemblies(parts: PartStore) {
  /** By upload id. Only this process's PUTs feed one; complete checks `shas` against the record. */
  const assemblies = new Map<string, Assembly>();
  /** How completes hashed the file: `fast` (no re-read), `resumed` (parts after the prefix read), `full`. */
  const stats = { fast: 0, resumed: 0, full: 0 };

  function start(id: string): void {
    if (!parts.ranged) return;
    assemblies.set(id, { next: 0, hash: createHash('sha256'), shas: [], busy: false, broken: false });
  }

  /**
   * A copy of the running hash for part `index` when it is the next in order and no other PUT is feeding one
   * (one at a time); `done` must be called once the PUT has finished.
   */
  function teeFor(id: string, index: number) {
    const asm = assemblies.get(id);
    if (!asm || asm.broken || asm.busy || index !== asm.next) return undefined;
    asm.busy = true;
    const done = () => {
      asm.busy = false;
    };
    return { hash: asm.hash.copy(), asm, done };
  }

  /** After part `index` was committed: its bytes join the running hash if fed in order, else may break it. */
  function committed(
    id: string,
    index: number,
    part: { sha256: string },
    previousSha: string | undefined,
    teed: ReturnType<typeof teeFor>,
  ): void {
    const state = assemblies.get(id);
    if (state && teed && state === teed.asm && !state.broken && state.next === index) {
      state.hash = teed.hash; // the part is whole, verified and in place: its bytes join the running hash
      state.shas[index] = part.sha256;
      state.next++;
    } else if (state && index < state.next && previousSha !== part.sha256) state.broken = true;
  }

  /**
   * The whole file at `target` with its size and SHA-256, from the running hash where it is usable. It is usable
   * only if each part in it is the one the record holds: a re-send through another node replaces a part without
   * this process seeing it.
   */
  async function joinWhole(workspaceId: string, upload: ChunkedUploadRecord, target: string) {
    const asm = assemblies.get(upload.id);
    assemblies.delete(upload.id); // its hash is finished below, or it is of no use: a later complete reads the file
    const matches = asm && range(asm.next).every((i) => asm.shas[i] === upload.parts[i]?.sha256);
    if (!asm || !matches || asm.broken || asm.busy || asm.next === 0) {
      stats.full++;
      return parts.join(workspaceId, upload, target);
    }
    stats[asm.next === upload.partCount ? 'fast' : 'resumed']++;
    return parts.join(workspaceId, upload, target, { from: asm.next, hash: asm.hash });
  }

  return { start, teeFor, committed, joinWhole, drop: (id: string) => assemblies.delete(id), stats };
}

export type Assemblies = ReturnType<typeof createAssemblies>;
