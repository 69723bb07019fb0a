import { HttpError } from '../../http/errors.js';

/**
 * What a render task throws for bad or oversized input. It crosses the worker boundary as plain data
 * (render-worker.mjs) and becomes an HttpError with the same status on the main thread (render-pool.ts).
 */
export class RenderFailure extends HttpError {
  constructor(status: 400 | 413 | 422, message: string, details: Record<string, unknown> = {}) {
    super(status, message, details);
    this.name = 'RenderFailure';
  }
}

export type Issue = { path: string; message: string; line?: number; column?: number };

/** 400 with every problem listed, each with a JSON pointer (or a position in the source). */
export const invalid = (message: string, issues: Issue[]) => new RenderFailure(400, message, { issues });
export const tooLarge = (message: string) => new RenderFailure(413, message);
export const unrenderable = (message: string) => new RenderFailure(422, message);
