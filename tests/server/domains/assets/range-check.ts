/** Runs one range vector against a URL serving `file`; returns what is wrong (empty = pass). */
import type { RangeVector } from './range-vectors.js';

export async function checkRangeVector(url: string, file: Buffer, vector: RangeVector): Promise<string[]> {
  const res = await fetch(url, { method: vector.method ?? 'GET', headers: vector.headers });
  const body = Buffer.from(await res.arrayBuffer());
  const problems: string[] = [];
  if (res.status !== vector.status) problems.push(`status ${res.status} != ${vector.status}`);
  if (res.headers.get('accept-ranges') !== 'bytes') problems.push('no Accept-Ranges: bytes');
  if (res.status === 416 && res.headers.get('content-range') !== `bytes */${file.length}`)
    problems.push('416 without bytes */len');
  if (vector.method === 'HEAD') {
    if (body.length) problems.push('HEAD had a body');
    if (res.headers.get('content-length') !== String(file.length))
      problems.push('HEAD Content-Length differs from GET');
    return problems;
  }
  if (!vector.slices) return problems;
  const type = res.headers.get('content-type') ?? '';
  if (vector.slices.length === 1) {
    const [a, b] = vector.slices[0];
    if (!body.equals(file.subarray(a, b + 1))) problems.push(`body differs from slice ${a}-${b}`);
    if (res.status === 206 && res.headers.get('content-range') !== `bytes ${a}-${b}/${file.length}`) {
      problems.push(`Content-Range ${res.headers.get('content-range')}`);
    }
    return problems;
  }
  const boundary = /boundary=([^;]+)/.exec(type)?.[1];
  if (!type.startsWith('multipart/byteranges') || !boundary) return [...problems, `not multipart: ${type}`];
  const parts = parseByteranges(body, boundary);
  if (parts.length !== vector.slices.length) problems.push(`${parts.length} parts`);
  for (const [i, [a, b]] of vector.slices.entries()) {
    if (parts[i]?.range !== `bytes ${a}-${b}/${file.length}`)
      problems.push(`part ${i} range ${parts[i]?.range}`);
    if (!parts[i]?.body.equals(file.subarray(a, b + 1))) problems.push(`part ${i} body differs`);
  }
  if (res.headers.get('content-length') !== String(body.length)) problems.push('Content-Length mismatch');
  return problems;
}

function parseByteranges(body: Buffer, boundary: string): { range: string; body: Buffer }[] {
  const parts: { range: string; body: Buffer }[] = [];
  const delimiter = Buffer.from(`--${boundary}`);
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const headStart = at + delimiter.length;
    if (body.subarray(headStart, headStart + 2).toString() === '--') break;
    const headEnd = body.indexOf('\r\n\r\n', headStart);
    const head = body.subarray(headStart, headEnd).toString();
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), headEnd);
    parts.push({
      range: /Content-Range: (.*)/i.exec(head)?.[1]?.trim() ?? '',
      body: body.subarray(headEnd + 4, next),
    });
    at = next + 2;
  }
  return parts;
}
