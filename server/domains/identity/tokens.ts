import { randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe. Only the hash is ever stored. */
export const newToken = () => randomBytes(32).toString('base64url');
