/**
 * The fast path of a complete, where parts are written in place (part-store.ts `ranged`): a running whole-file
 * SHA-256 of parts 0..next-1, so complete finishes the hash without reading the file again. The part that is next
 * in order is fed to a copy of the hash in its one stream pass; a part that arrives ahead of it (a client sending
 * several at once) is read back from the file into the hash once the gap before it fills, while later parts are
 * still arriving, instead of at complete. A copy becomes the running hash only when its part is verified and
 * committed. A re-PUT of an already hashed index with different bytes, or a restart (the hash lives in memory),
 * drops the running hash and complete reads the whole file once: correctness never depends on the fast path.
 */
import { createHash, type Hash } from 'node:crypto';
import { range } from './part-checks.js';
import type { PartGeometry, PartStore } from './part-store.js';
import type { ChunkedUploadRecord } from './schema.js';

type Geometry = PartGeometry & Pick<ChunkedUploadRecord, 'partCount'>;

type Assembly = {
  workspaceId: string;
  upload: Geometry;
  /** Parts 0..next-1 are in `hash`, their SHA-256s in `shas`. */
  next: number;
  hash: Hash;
  shas: string[];
  /** Parts committed at or past `next` and not in the hash yet, with the SHA-256 each was committed with. */
  ahead: Map<number, string>;
  /** A PUT is feeding a copy of the hash. */
  feeding: boolean;
  /** Parts ahead are being read into the hash. */
  catchingUp?: Promise<void>;
  broken: boolean;
};

export function createAssemblies(parts: PartStore) {
  /** By upload id. Only this process's PUTs feed one; complete checks `shas` against the record. */
  const assemblies = new Map<string, Assembly>();
  /** How completes hashed the file: `fast` (no re-read), `resumed` (parts after the prefix read), `full`. */
  const stats = { fast: 0, resumed: 0, full: 0 };

  function start(workspaceId: string, upload: Geometry): void {
    if (!parts.ranged) return;
    const { id, size, partSize, partCount } = upload;
    assemblies.set(id, {
      workspaceId,
      upload: { id, size, partSize, partCount },
      next: 0,
      hash: createHash('sha256'),
      shas: [],
      ahead: new Map(),
      feeding: false,
      broken: false,
    });
  }

  /**
   * A copy of the running hash for part `index` when it is the next in order and nothing else is feeding the hash
   * (one at a time); `done` must be called once the PUT has finished.
   */
  function teeFor(id: string, index: number) {
    const asm = assemblies.get(id);
    if (!asm || asm.broken || asm.feeding || asm.catchingUp || index !== asm.next) return undefined;
    asm.feeding = true;
    const done = () => {
      asm.feeding = false;
      catchUp(asm);
    };
    return { hash: asm.hash.copy(), asm, done };
  }

  /** After part `index` was committed: its bytes join the running hash if fed in order, else wait or break it. */
  function committed(
    id: string,
    index: number,
    part: { sha256: string },
    previousSha: string | undefined,
    teed: ReturnType<typeof teeFor>,
  ): void {
    const state = assemblies.get(id);
    if (!state || state.broken) return;
    if (teed && state === teed.asm && state.next === index) {
      state.hash = teed.hash; // the part is whole, verified and in place: its bytes join the running hash
      state.shas[index] = part.sha256;
      state.ahead.delete(index);
      state.next++;
    } else if (index < state.next) {
      if (previousSha !== part.sha256) state.broken = true;
    } else {
      state.ahead.set(index, part.sha256);
    }
    catchUp(state);
  }

  /** Reads the parts waiting ahead into the hash, in order, for as long as the next one is there. */
  function catchUp(asm: Assembly): void {
    const { hashPart } = parts;
    if (!hashPart || asm.broken || asm.feeding || asm.catchingUp || !asm.ahead.has(asm.next)) return;
    asm.catchingUp = (async () => {
      while (assemblies.get(asm.upload.id) === asm && !asm.broken && asm.ahead.has(asm.next)) {
        const index = asm.next;
        const committedSha = asm.ahead.get(index);
        const hash = asm.hash.copy();
        const sha = await hashPart(asm.workspaceId, asm.upload, index, hash);
        if (asm.ahead.get(index) !== committedSha) continue; // sent again while it was read: read it again
        if (sha !== committedSha) {
          asm.ahead.delete(index); // its range holds other bytes: left to complete, which names the part
          return;
        }
        asm.hash = hash;
        asm.shas[index] = sha;
        asm.ahead.delete(index);
        asm.next++;
      }
    })()
      .catch(() => undefined) // removed meanwhile (aborted, swept): complete, if any, reads what the hash lacks
      .finally(() => {
        asm.catchingUp = undefined;
        catchUp(asm); // a part committed as this one ended
      });
  }

  /**
   * The whole file at `target` with its size and SHA-256, from the running hash where it is usable. It is usable
   * only if each part in it is the one the record holds: a re-send through another node replaces a part without
   * this process seeing it.
   */
  async function joinWhole(workspaceId: string, upload: ChunkedUploadRecord, target: string) {
    const asm = assemblies.get(upload.id);
    while (asm?.catchingUp) await asm.catchingUp;
    assemblies.delete(upload.id); // its hash is finished below, or it is of no use: a later complete reads the file
    const matches = asm && range(asm.next).every((i) => asm.shas[i] === upload.parts[i]?.sha256);
    if (!asm || !matches || asm.broken || asm.feeding || asm.next === 0) {
      stats.full++;
      return parts.join(workspaceId, upload, target);
    }
    stats[asm.next === upload.partCount ? 'fast' : 'resumed']++;
    return parts.join(workspaceId, upload, target, { from: asm.next, hash: asm.hash });
  }

  return { start, teeFor, committed, joinWhole, drop: (id: string) => assemblies.delete(id), stats };
}

export type Assemblies = ReturnType<typeof createAssemblies>;
