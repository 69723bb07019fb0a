/**
 * Transcript exports: SubRip, WebVTT, plain text and JSON. Pure. A segment's speaker shows as WebVTT's voice tag
 * (`<v Speaker 1>`), as a `Speaker 1: ` prefix in SubRip, and as a new paragraph per turn in plain text.
 */
import type { Transcript, TranscriptSegment } from './schema.js';

export type ExportFormat = 'srt' | 'vtt' | 'txt' | 'json';

export const exportContentTypes: Record<ExportFormat, string> = {
  srt: 'application/x-subrip; charset=utf-8',
  vtt: 'text/vtt; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

export function exportTranscript(transcript: Transcript, format: ExportFormat): string {
  switch (format) {
    case 'srt':
      return toSrt(withSpeakers(transcript.segments, (speaker, text) => `${speaker}: ${text}`));
    case 'vtt':
      return toVtt(withSpeakers(transcript.segments, (speaker, text) => `<v ${speaker}>${text}`));
    case 'txt':
      return `${spokenTurns(transcript) ?? transcript.text ?? ''}\n`;
    case 'json':
      return `${JSON.stringify(transcript, null, 2)}\n`;
  }
}

function withSpeakers(
  segments: TranscriptSegment[],
  show: (speaker: string, text: string) => string,
): TranscriptSegment[] {
  return segments.map((s) =>
    s.speaker && s.text.trim() ? { ...s, text: show(s.speaker, s.text.trim()) } : s,
  );
}

/** "Speaker 1: ..." paragraphs, one per turn; undefined when no segment names a speaker. */
function spokenTurns({ segments }: Transcript): string | undefined {
  if (!segments.some((s) => s.speaker)) return undefined;
  const turns: { speaker?: string; texts: string[] }[] = [];
  for (const { speaker, text } of segments) {
    if (!text.trim()) continue;
    const last = turns.at(-1);
    if (last && last.speaker === speaker) last.texts.push(text.trim());
    else turns.push({ speaker, texts: [text.trim()] });
  }
  return turns
    .map(({ speaker, texts }) => (speaker ? `${speaker}: ${texts.join(' ')}` : texts.join(' ')))
    .join('\n\n');
}

/** SubRip: 1-based cues, `HH:MM:SS,mmm --> HH:MM:SS,mmm`, a blank line between cues. */
export function toSrt(segments: TranscriptSegment[]): string {
  return cues(segments)
    .map((s, i) => `${i + 1}\n${timestamp(s.start, ',')} --> ${timestamp(s.end, ',')}\n${s.text}\n`)
    .join('\n');
}

/** WebVTT: the `WEBVTT` header, then cues with `HH:MM:SS.mmm`. */
export function toVtt(segments: TranscriptSegment[]): string {
  const body = cues(segments).map(
    (s) => `${timestamp(s.start, '.')} --> ${timestamp(s.end, '.')}\n${s.text}\n`,
  );
  return ['WEBVTT\n', ...body].join('\n');
}

/** Empty segments make empty cues, which players reject; "-->" inside text would end a cue line early. */
function cues(segments: TranscriptSegment[]): TranscriptSegment[] {
  return segments
    .map((s) => ({
      ...s,
      text: s.text
        .trim()
        .replace(/-->/g, '->')
        .replace(/\n{2,}/g, '\n'),
    }))
    .filter((s) => s.text !== '');
}

export function timestamp(seconds: number, separator: ',' | '.'): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${pad(h)}:${pad(m)}:${pad(s)}${separator}${pad(ms % 1000, 3)}`;
}
