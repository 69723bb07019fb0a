import type { Store } from '../types.js';

/**
 * One step of the stored data's schema. A step names the collections it reads and writes and transforms their rows
 * itself, as they were when it was written: it imports no domain, so a later change to a domain cannot change what
 * an old step does.
 */
export type Migration = { version: number; name: string; up(store: Store): Promise<void> };
