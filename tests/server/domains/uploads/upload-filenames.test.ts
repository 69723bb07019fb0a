// A file name outside ASCII comes back exactly as sent, in each form a multipart upload carries it: raw UTF-8 in
// `filename="…"` (browsers, curl), RFC 5987 `filename*=UTF-8''…` (Python's requests before urllib3 2), both at once
// (Postman), and RFC 2047 words beside `filename*` (.NET's HttpClient, PowerShell).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Part, postRaw } from '../assets/fixtures.js';
import { type AssetsServer, startAssetsServer } from '../assets/harness.js';

const NAME = 'Café – 日本語 😀.txt';
const BOUNDARY = 'folioNameBoundary0d6f1c';

let s: AssetsServer;
beforeAll(async () => {
  s = await startAssetsServer();
});
afterAll(() => s?.close());

/** One file part whose Content-Disposition parameters are written as given (the fixture's multipart quotes them). */
function uploadWithDisposition(params: string) {
  const body = Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; ${params}\r\n`),
    Buffer.from('Content-Type: text/plain\r\n\r\nhello\r\n'),
    Buffer.from(`--${BOUNDARY}--\r\n`),
  ]);
  return postRaw(
    `${s.url}/api/v1/uploads`,
    { ...s.auth, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    body,
  );
}

/** The stored record, read back rather than taken from the upload's answer. */
async function storedFilename(id: string): Promise<string> {
  return ((await (await s.api(`/api/v1/assets/${id}`)).json()) as { filename: string }).filename;
}

describe('upload file names', () => {
  it.each<[string, () => ReturnType<typeof uploadWithDisposition>]>([
    ['raw UTF-8 in filename="…" (curl, browsers)', () => s.upload([filePartNamed(NAME)])],
    ['RFC 5987 filename*=UTF-8', () => uploadWithDisposition(`filename*=UTF-8''${encodeURIComponent(NAME)}`)],
    [
      'raw UTF-8 and filename* together (Postman)',
      () => uploadWithDisposition(`filename="${NAME}"; filename*=UTF-8''${encodeURIComponent(NAME)}`),
    ],
    [
      'RFC 2047 words beside filename* (.NET)',
      () =>
        uploadWithDisposition(
          `filename="=?utf-8?B?${Buffer.from(NAME).toString('base64')}?="; filename*=utf-8''${encodeURIComponent(NAME)}`,
        ),
    ],
  ])('%s round-trips exactly', async (_label, send) => {
    const res = await send();
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    expect(res.json.filename).toBe(NAME);
    expect(await storedFilename(res.json.id)).toBe(NAME);
  });

  it('a browser-style FormData upload keeps the name', async () => {
    const form = new FormData();
    form.append('file', new Blob(['hello'], { type: 'text/plain' }), NAME);
    const res = await s.api('/api/v1/uploads', { method: 'POST', body: form });
    expect(res.status).toBe(201);
    expect(await storedFilename(((await res.json()) as { id: string }).id)).toBe(NAME);
  });
});

function filePartNamed(filename: string): Part {
  return { name: 'file', value: 'hello', filename, contentType: 'text/plain' };
}
