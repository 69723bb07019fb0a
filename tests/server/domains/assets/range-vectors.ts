/** Range test vectors (jshttp/range-parser, ceph s3-tests, RFC 9110 §14) for a file of SIZE bytes. */
export const SIZE = 1000;

export interface RangeVector {
  name: string;
  headers: Record<string, string>;
  method?: 'GET' | 'HEAD';
  status: number;
  /** Expected inclusive slices (one → single part; several → multipart/byteranges). */
  slices?: [number, number][];
}

export const rangeVectors = (v: { etag: string; lastModified: string }): RangeVector[] => [
  { name: 'no Range → full', headers: {}, status: 200, slices: [[0, 999]] },
  { name: 'first byte', headers: { range: 'bytes=0-0' }, status: 206, slices: [[0, 0]] },
  { name: 'simple 4-7', headers: { range: 'bytes=4-7' }, status: 206, slices: [[4, 7]] },
  { name: 'open-ended 4-', headers: { range: 'bytes=4-' }, status: 206, slices: [[4, 999]] },
  { name: 'suffix -7', headers: { range: 'bytes=-7' }, status: 206, slices: [[993, 999]] },
  { name: 'suffix larger than file', headers: { range: 'bytes=-5000' }, status: 206, slices: [[0, 999]] },
  { name: 'end capped at size', headers: { range: 'bytes=990-5000' }, status: 206, slices: [[990, 999]] },
  { name: 'last byte', headers: { range: 'bytes=999-999' }, status: 206, slices: [[999, 999]] },
  { name: 'whole file as range', headers: { range: 'bytes=0-999' }, status: 206, slices: [[0, 999]] },
  { name: 'start past end → 416', headers: { range: 'bytes=1000-1001' }, status: 416 },
  { name: 'far past end → 416', headers: { range: 'bytes=4000-5000' }, status: 416 },
  { name: 'suffix -0 → 416', headers: { range: 'bytes=-0' }, status: 416 },
  { name: 'unknown unit → 200', headers: { range: 'items=0-5' }, status: 200, slices: [[0, 999]] },
  { name: 'no equals → 200', headers: { range: 'bytes' }, status: 200, slices: [[0, 999]] },
  { name: 'inverted 5-4 is invalid → 200', headers: { range: 'bytes=5-4' }, status: 200, slices: [[0, 999]] },
  { name: 'lone dash → 200', headers: { range: 'bytes=-' }, status: 200, slices: [[0, 999]] },
  { name: 'negative start garbage → 200', headers: { range: 'bytes=--5' }, status: 200, slices: [[0, 999]] },
  { name: 'letters → 200', headers: { range: 'bytes=a-b' }, status: 200, slices: [[0, 999]] },
  { name: 'unit is case-insensitive', headers: { range: 'Bytes=10-19' }, status: 206, slices: [[10, 19]] },
  {
    name: 'whitespace tolerated',
    headers: { range: 'bytes= 10-19 , 30-39' },
    status: 206,
    slices: [
      [10, 19],
      [30, 39],
    ],
  },
  {
    name: 'two ranges → multipart',
    headers: { range: 'bytes=0-9,20-29' },
    status: 206,
    slices: [
      [0, 9],
      [20, 29],
    ],
  },
  { name: 'two overlapping merged', headers: { range: 'bytes=0-9,5-14' }, status: 206, slices: [[0, 14]] },
  { name: 'adjacent merged', headers: { range: 'bytes=0-9,10-19' }, status: 206, slices: [[0, 19]] },
  {
    name: 'one satisfiable of two',
    headers: { range: 'bytes=5000-6000,0-1' },
    status: 206,
    slices: [[0, 1]],
  },
  {
    name: 'three overlapping → ignored (200)',
    headers: { range: 'bytes=0-9,5-14,8-20' },
    status: 200,
    slices: [[0, 999]],
  },
  {
    name: 'three out of order → ignored',
    headers: { range: 'bytes=50-59,0-9,20-29' },
    status: 200,
    slices: [[0, 999]],
  },
  {
    name: 'three ascending → multipart',
    headers: { range: 'bytes=0-0,10-10,20-20' },
    status: 206,
    slices: [
      [0, 0],
      [10, 10],
      [20, 20],
    ],
  },
  {
    name: 'nine ranges → ignored',
    headers: { range: `bytes=${Array.from({ length: 9 }, (_, i) => `${i * 10}-${i * 10 + 1}`).join(',')}` },
    status: 200,
    slices: [[0, 999]],
  },
  {
    name: 'If-Range strong match',
    headers: { range: 'bytes=4-7', 'if-range': v.etag },
    status: 206,
    slices: [[4, 7]],
  },
  {
    name: 'If-Range mismatch → full',
    headers: { range: 'bytes=4-7', 'if-range': '"nope"' },
    status: 200,
    slices: [[0, 999]],
  },
  {
    name: 'If-Range weak → full',
    headers: { range: 'bytes=4-7', 'if-range': `W/${v.etag}` },
    status: 200,
    slices: [[0, 999]],
  },
  {
    name: 'If-Range exact date',
    headers: { range: 'bytes=4-7', 'if-range': v.lastModified },
    status: 206,
    slices: [[4, 7]],
  },
  {
    name: 'If-Range other date → full',
    headers: { range: 'bytes=4-7', 'if-range': 'Thu, 01 Jan 1970 00:00:00 GMT' },
    status: 200,
    slices: [[0, 999]],
  },
  {
    name: 'If-None-Match → 304 before Range',
    headers: { range: 'bytes=4-7', 'if-none-match': v.etag },
    status: 304,
  },
  { name: 'If-None-Match weak compare → 304', headers: { 'if-none-match': `W/${v.etag}` }, status: 304 },
  {
    name: 'If-None-Match other → 206',
    headers: { range: 'bytes=4-7', 'if-none-match': '"x"' },
    status: 206,
    slices: [[4, 7]],
  },
  { name: 'If-Modified-Since now → 304', headers: { 'if-modified-since': v.lastModified }, status: 304 },
  { name: 'If-Match mismatch → 412', headers: { 'if-match': '"x"' }, status: 412 },
  { name: 'HEAD mirrors GET (no Range)', method: 'HEAD', headers: {}, status: 200 },
  { name: 'HEAD ignores Range', method: 'HEAD', headers: { range: 'bytes=4-7' }, status: 200 },
];
