// Entry of the thread that reads a recording's duration (read-duration.ts). Plain JavaScript, so the thread starts
// the same under tsx, vitest or a bundled build; it needs only music-metadata.
import { parseBuffer, parseFile } from 'music-metadata';

const OPTIONS = { duration: true, skipCovers: true };

/** Seconds, or undefined when the header does not say. Throws on an unreadable file (the caller stores no facts). */
export default async function readDuration({ path, bytes, contentType }) {
  const meta = path
    ? await parseFile(path, OPTIONS)
    : await parseBuffer(bytes, { mimeType: contentType, size: bytes.length }, OPTIONS);
  const duration = meta.format.duration;
  return duration !== undefined && Number.isFinite(duration) ? duration : undefined;
}
