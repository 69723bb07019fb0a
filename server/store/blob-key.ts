// Blob keys every backend accepts: segments of letters, digits, `.`, `_` and `-` separated by `/`, never `.`
// or `..`, so a key can be a relative path on a file system and an object key in a bucket alike.
const KEY = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

export function assertBlobKey(key: string): string {
  if (!KEY.test(key) || key.split('/').some((s) => s === '.' || s === '..'))
    throw new Error(`Invalid blob key: ${key}`);
  return key;
}
