// API key secrets: `fk_` + 32 base62 random chars (~190 bits) + a 6-char CRC32 checksum, so secret
// scanners can recognise a Folio key offline (as GitHub's token format does). Stored as SHA-256 only.
import { timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { KEY_PREFIX } from '../../http/authenticate.js';
import { hashSecret } from '../../http/secret-hash.js';
import { randomBase62 } from '../../store/ids.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const DISPLAY_CHARS = 8;

function checksum(body: string): string {
  let n = crc32(body);
  let out = '';
  for (let i = 0; i < 6; i++) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

export function mintSecret(): { secret: string; prefix: string; hash: string } {
  const body = randomBase62(32);
  const secret = `${KEY_PREFIX}${body}${checksum(body)}`;
  return { secret, prefix: displayPrefix(secret), hash: hashSecret(secret) };
}

export const displayPrefix = (secret: string) => secret.slice(0, KEY_PREFIX.length + DISPLAY_CHARS);

export function isWellFormed(secret: string): boolean {
  if (!/^fk_[0-9A-Za-z]{38}$/.test(secret)) return false;
  const body = secret.slice(KEY_PREFIX.length, -6);
  return checksum(body) === secret.slice(-6);
}

/** Compares two hex SHA-256 hashes in constant time; both are 64 characters. */
export const sameHash = (a: string, b: string) =>
  timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
