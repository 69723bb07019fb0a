// The file name a download's Content-Disposition gives (RFC 6266): `filename*` (RFC 8187, `UTF-8''` and %-escapes)
// before `filename` (the server's ASCII fallback, as the `content-disposition` package writes it). `filename` is
// taken as is, never %-decoded: `100% done.txt` is a name, not an escape. Nothing here throws; a header that gives
// no usable name gives `fallback`. The `content-disposition` package is not used here: its parse throws on an
// irregular header, and before 1.1.0 (which package.json's range allows) it needed Node's Buffer.

/** `; name=value` pairs, the value a quoted string (with `\` escapes) or a token. */
const PARAM = /;\s*([\w!#$&+.^`|~*-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g;

export function filenameFromDisposition(header: string | null, fallback = 'download'): string {
  const params = new Map<string, string>();
  for (const [, name, value] of (header ?? '').matchAll(PARAM)) {
    const key = name.toLowerCase();
    if (!params.has(key)) params.set(key, unquote(value.trim()));
  }
  return decodeExtValue(params.get('filename*')) || params.get('filename') || fallback;
}

function unquote(value: string): string {
  return value.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, '$1') : value;
}

/** An RFC 8187 value (`charset'language'%-encoded`) in UTF-8 or ISO-8859-1; undefined when it is not one. */
function decodeExtValue(value: string | undefined): string | undefined {
  const match = /^([\w!#$%&+^`{}~-]+)'[^']*'(.*)$/.exec(value ?? '');
  if (!match) return undefined;
  const [, charset, encoded] = match;
  const byte = (_: string, hex: string) => String.fromCharCode(Number.parseInt(hex, 16));
  if (charset.toLowerCase() === 'iso-8859-1') return encoded.replace(/%([0-9a-f]{2})/gi, byte);
  if (charset.toLowerCase() !== 'utf-8') return undefined;
  try {
    return decodeURIComponent(encoded);
  } catch {
    return undefined; // a broken escape: the plain filename, if any, still names the file
  }
}
