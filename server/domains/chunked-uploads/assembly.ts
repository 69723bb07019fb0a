/**
 * The in-order fast path of a complete: while parts arrive in order, each one is also teed (same stream pass) into
 * <dir>/assembly.tmp and a copy of a running whole-file SHA-256 kept in memory; the copy becomes the running hash
 * only when the part is verified and committed. Complete then checks the part sizes on disk, finishes the hash and
 * renames the assembly into place, or, if the assembly covers only parts 0..k-1, reads and appends just parts k.. .
 * A re-PUT of an already appended index with different bytes, or a restart (the hash lives in memory), drops the
 * assembly and complete joins all parts from disk: correctness never depends on the fast path.
 */
import { createHash, type Hash } from 'node:crypto';
import { rename, truncate } from 'node:fs/promises';
import { range } from './part-checks.js';
import type { Tee } from './part-files.js';
import type { PartStore } from './part-store.js';
import type { ChunkedUploadRecord } from './schema.js';

/** Parts 0..next-1 are in assembly.tmp (`size` bytes, their SHA-256s in `shas`) and in `hash`. */
type Assembly = { next: number; size: number; hash: Hash; shas: string[]; busy: boolean; broken: boolean };

export function createAssemblies(parts: PartStore) {
  /** By upload id. Only this process's PUTs tee into one; complete checks `shas` against the record. */
  const assemblies = new Map<string, Assembly>();
  /** How completes joined the file: `fast` (assembly only), `resumed` (assembly + later parts), `full` (all parts). */
  const stats = { fast: 0, resumed: 0, full: 0 };

  function start(id: string): void {
    if (!parts.assemblyOf) return;
    const hash = createHash('sha256');
    assemblies.set(id, { next: 0, size: 0, hash, shas: [], busy: false, broken: false });
  }

  /**
   * The tee for part `index` when it is the next in order and no other PUT is teeing (one at a time); `done` must
   * be called once the PUT has finished, `commit` once the part is in place.
   */
  function teeFor(workspaceId: string, id: string, index: number) {
    const asm = assemblies.get(id);
    if (!asm || !parts.assemblyOf || asm.broken || asm.busy || index !== asm.next) return undefined;
    asm.busy = true;
    const tee: Tee = { path: parts.assemblyOf(workspaceId, id), start: asm.size, hash: asm.hash.copy() };
    const done = () => {
      asm.busy = false;
    };
    return { tee, asm, done };
  }

  /** After part `index` was committed: its bytes join the running hash if teed in order, else may break it. */
  function committed(
    id: string,
    index: number,
    part: { size: number; sha256: string; teed: boolean },
    previousSha: string | undefined,
    teed: ReturnType<typeof teeFor>,
  ): void {
    const state = assemblies.get(id);
    if (state && teed && state === teed.asm && part.teed && !state.broken && state.next === index) {
      state.hash = teed.tee.hash; // the part is whole, verified and in place: its bytes join the running hash
      state.size += part.size;
      state.shas[index] = part.sha256;
      state.next++;
    } else if (state && index < state.next && previousSha !== part.sha256) state.broken = true;
  }

  /**
   * The whole file at `target`: from the assembly when it is usable (fast path), else from every part. The
   * assembly is usable only if each part in it is the one the record holds: a re-send through another node
   * replaces a part without this process seeing it.
   */
  async function joinWhole(workspaceId: string, upload: ChunkedUploadRecord, target: string) {
    const { id, partCount } = upload;
    const asm = assemblies.get(id);
    assemblies.delete(id); // its hash is finished below, or it is of no use: a later complete joins all parts
    const matches = asm && range(asm.next).every((i) => asm.shas[i] === upload.parts[i]?.sha256);
    if (!asm || !parts.assemblyOf || !matches || asm.broken || asm.busy || asm.next === 0) {
      stats.full++;
      return parts.join(workspaceId, id, partCount, target);
    }
    const path = parts.assemblyOf(workspaceId, id);
    let whole: { size: number; sha256: string };
    if (asm.next === partCount) {
      stats.fast++;
      whole = { size: asm.size, sha256: asm.hash.digest('hex') };
    } else {
      stats.resumed++;
      whole = await parts.join(workspaceId, id, partCount, path, {
        from: asm.next,
        size: asm.size,
        hash: asm.hash,
      });
    }
    await truncate(path, whole.size); // nothing past the parts (a failed tee never writes past its own part)
    await rename(path, target);
    return whole;
  }

  return { start, teeFor, committed, joinWhole, drop: (id: string) => assemblies.delete(id), stats };
}

export type Assemblies = ReturnType<typeof createAssemblies>;
