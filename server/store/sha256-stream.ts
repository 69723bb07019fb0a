/**
 * A pass-through stream that counts and SHA-256-hashes the bytes flowing through it, in the same pass as their
 * write: uploads, chunked parts, blob writes and exports all use it. Past `maxBytes` it fails with `overLimit()`
 * before the byte that crosses the limit goes on; `alongside` (another running hash) is fed the same chunks.
 */
import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

export type Sha256StreamOptions = {
  maxBytes?: number;
  overLimit?: () => Error;
  alongside?: Hash;
};

export class Sha256Stream extends Transform {
  /** Bytes that have flowed through so far (not `size`: the S3 uploader takes a body's `size` for its length). */
  bytes = 0;
  readonly #hash = createHash('sha256');
  readonly #options: Sha256StreamOptions;

  constructor(options: Sha256StreamOptions = {}) {
    super();
    this.#options = options;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    const { maxBytes, overLimit, alongside } = this.#options;
    if (maxBytes !== undefined && this.bytes > maxBytes) {
      done(overLimit?.() ?? new Error(`More than ${maxBytes} bytes`));
      return;
    }
    this.#hash.update(chunk);
    alongside?.update(chunk);
    done(null, chunk);
  }

  /** The hex SHA-256 of every byte that went through; call once the stream has finished. */
  digest(): string {
    return this.#hash.digest('hex');
  }
}
