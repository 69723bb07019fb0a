/** Public serve keys: 22 base62 chars (~131 random bits), unguessable and unique across the instance. */
import { customAlphabet } from 'nanoid';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_LENGTH = 22;
const KEY_FORMAT = /^[0-9A-Za-z]{22}$/;

export const newAssetKey = customAlphabet(BASE62, KEY_LENGTH);

/** Anything else (`../`, `%2e%2e`, dots, slashes, NUL) is rejected before any lookup or path join. */
export function isAssetKey(value: string): boolean {
  return KEY_FORMAT.test(value);
}
