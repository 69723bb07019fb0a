// Every bearer secret and session token is stored as its SHA-256 only; a presented one is found by that hash.
import { hash } from 'node:crypto';

/** Hex SHA-256 of a secret. The one-shot `crypto.hash` with hex output costs a fraction of `createHash` (1.8 → 0.3 µs). */
export const hashSecret = (secret: string): string => hash('sha256', secret, 'hex');
