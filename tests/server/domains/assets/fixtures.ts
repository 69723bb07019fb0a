/** Real files for the assets tests, generated on the fly: images with sharp, WAV audio, raw multipart bodies. */
import { request } from 'node:http';
import sharp from 'sharp';
import { toneWav } from '../../../../scripts/lib/wav.js';

export const png = (width = 64, height = 48) =>
  sharp({ create: { width, height, channels: 3, background: '#3a7' } })
    .png()
    .toBuffer();

export const jpeg = (width = 800, height = 600) =>
  sharp({ create: { width, height, channels: 3, background: '#a37' } })
    .jpeg()
    .toBuffer();

/** Mono 16-bit PCM WAV with a sine tone: playable by Chromium, parsable by music-metadata. */
export const wav = (seconds: number, sampleRate = 22050): Buffer => toneWav(seconds, sampleRate);

export interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
  contentType?: string;
}

/** A multipart/form-data body, built by hand so tests can also cut or bend it. */
export function multipart(
  parts: Part[],
  boundary = 'folioTestBoundary7MA4YWxk',
): { body: Buffer; contentType: string } {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    const type = p.contentType ? `\r\nContent-Type: ${p.contentType}` : '';
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`),
      Buffer.from(p.value),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export function filePart(
  value: Buffer | string,
  filename = 'file.bin',
  contentType = 'application/octet-stream',
): Part {
  return { name: 'file', value, filename, contentType };
}

export interface RawResponse {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the server answered
  json: any;
  headers: Record<string, string | string[] | undefined>;
}

/** POST raw bytes with node:http (fetch would fix up what the tests want broken). */
export function postRaw(
  url: string,
  headers: Record<string, string>,
  body: Buffer,
  options: { chunked?: boolean } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: options.chunked ? headers : { ...headers, 'content-length': String(body.length) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = text;
          }
          resolve({ status: res.statusCode ?? 0, json, headers: res.headers });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
