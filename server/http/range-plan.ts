/** Decides how to answer a byte request (RFC 9110 §13 preconditions, §14 Range) from headers and validators alone. */
import parseRange from 'range-parser';

export interface ByteRange {
  start: number;
  end: number; // inclusive
}

export interface Validators {
  size: number;
  etag: string; // strong, quoted: "abc"
  lastModified: number; // ms since epoch, whole seconds are compared
}

export type RequestHeaders = Record<string, string | string[] | undefined>;

export type BytePlan =
  | { status: 200 }
  | { status: 206; ranges: ByteRange[] }
  | { status: 304 }
  | { status: 412 }
  | { status: 416 };

/** More ranges than this are a DoS signal (RFC 9110 §14.2): the Range header is ignored and the whole file sent. */
export const MAX_RANGES = 8;
const RANGE_SYNTAX = /^bytes=\s*(\d*-\d*)(\s*,\s*(\d*-\d*))*\s*$/i;

export function planByteResponse(method: string, headers: RequestHeaders, v: Validators): BytePlan {
  const precondition = evaluatePreconditions(method, headers, v);
  if (precondition) return precondition;
  const range = header(headers, 'range');
  if (method !== 'GET') return { status: 200 }; // Range is defined for GET only (RFC 9110 §14.2); HEAD sends the full headers
  if (range === undefined || !ifRangeMatches(header(headers, 'if-range'), v)) return { status: 200 };
  return planRange(range, v.size);
}

/** Range alone: 200 when the header must be ignored, 206 with merged ranges, or 416. */
export function planRange(range: string, size: number): BytePlan {
  if (!RANGE_SYNTAX.test(range)) return { status: 200 }; // unknown unit or malformed: ignore (RFC 9110 §14.2)
  const specs = range
    .slice(range.indexOf('=') + 1)
    .split(',')
    .map((s) => s.trim())
    .map((s) => (s.startsWith('-') && Number(s.slice(1)) > size ? '0-' : s)); // suffix longer than the file = all of it
  if (specs.some(isInvalidSpec)) return { status: 200 }; // e.g. "5-4" or "-": syntactically invalid, ignore
  if (specs.length > MAX_RANGES) return { status: 200 };
  const parsed = parseRange(size, `bytes=${specs.join(',')}`);
  if (parsed === -1 || parsed === -2) return { status: 416 };
  if (specs.length > 2 && overlapsOrUnordered(parsed)) return { status: 200 }; // >2 overlapping: DoS signal
  const merged = parseRange(size, `bytes=${specs.join(',')}`, { combine: true });
  if (merged === -1 || merged === -2) return { status: 416 };
  return { status: 206, ranges: merged.map(({ start, end }) => ({ start, end })) };
}

function isInvalidSpec(spec: string): boolean {
  const [a, b] = spec.split('-');
  if (a === '' && b === '') return true;
  return a !== '' && b !== '' && Number(b) < Number(a);
}

function overlapsOrUnordered(ranges: ByteRange[]): boolean {
  for (let i = 1; i < ranges.length; i++) if (ranges[i].start <= ranges[i - 1].end) return true;
  return false;
}

function evaluatePreconditions(method: string, headers: RequestHeaders, v: Validators): BytePlan | undefined {
  const ifMatch = header(headers, 'if-match');
  if (ifMatch !== undefined && !etagListMatches(ifMatch, v.etag, true)) return { status: 412 };
  const ifUnmodified = header(headers, 'if-unmodified-since');
  if (ifMatch === undefined && ifUnmodified !== undefined) {
    const t = Date.parse(ifUnmodified);
    if (!Number.isNaN(t) && seconds(v.lastModified) > seconds(t)) return { status: 412 };
  }
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  const ifNoneMatch = header(headers, 'if-none-match');
  if (ifNoneMatch !== undefined)
    return etagListMatches(ifNoneMatch, v.etag, false) ? { status: 304 } : undefined;
  const ifModified = header(headers, 'if-modified-since');
  if (ifModified !== undefined) {
    const t = Date.parse(ifModified);
    if (!Number.isNaN(t) && seconds(v.lastModified) <= seconds(t)) return { status: 304 };
  }
  return undefined;
}

/** If-Range: a strong ETag equal to ours, or a date exactly equal to Last-Modified. Weak tags never match. */
function ifRangeMatches(ifRange: string | undefined, v: Validators): boolean {
  if (ifRange === undefined) return true;
  const value = ifRange.trim();
  if (value.startsWith('W/')) return false;
  if (value.startsWith('"')) return value === v.etag;
  const t = Date.parse(value);
  return (
    !Number.isNaN(t) &&
    seconds(t) === seconds(v.lastModified) &&
    value === new Date(v.lastModified).toUTCString()
  );
}

function etagListMatches(list: string, etag: string, strong: boolean): boolean {
  if (list.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return list.split(',').some((raw) => {
    const tag = raw.trim();
    if (strong) return !tag.startsWith('W/') && tag === etag;
    return tag.replace(/^W\//, '') === opaque;
  });
}

function seconds(ms: number): number {
  return Math.floor(ms / 1000);
}

function header(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
