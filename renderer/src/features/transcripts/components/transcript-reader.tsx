// The audio player and the words: the word being spoken is highlighted as it plays; clicking a word (or a
// segment's time, from the keyboard) seeks there and plays.
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import type { Transcript, TranscriptWord } from '../../../api/types';
import { formatDuration } from '../../../ui/format';

type Segment = {
  id: number;
  start: number;
  end: number;
  text: string;
  speaker?: string;
  words: { word: TranscriptWord; index: number }[];
};

function groupWords(transcript: Transcript): Segment[] {
  const segments = transcript.segments.map((s) => ({ ...s, words: [] as Segment['words'] }));
  let current = 0;
  transcript.words.forEach((word, index) => {
    while (current < segments.length - 1 && word.start >= segments[current].end) current++;
    segments[current]?.words.push({ word, index });
  });
  return segments;
}

/** Each speaker once, in the order they first speak: their place picks their colour. */
function speakersInOrder(transcript: Transcript): string[] {
  return [...new Set(transcript.segments.flatMap((s) => (s.speaker ? [s.speaker] : [])))];
}

type Turn = { speaker: string; tone: number };

/** Where a new speaker starts talking: their name and colour (none for a segment no channel could tell). */
function speakerTurn(speaker: string | undefined, speakers: string[]): Turn | undefined {
  return speaker ? { speaker, tone: (speakers.indexOf(speaker) % 4) + 1 } : undefined;
}

/** Index of the word playing at `time`, or -1 (binary search over start times). */
export function wordAt(words: TranscriptWord[], time: number): number {
  let lo = 0;
  let hi = words.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (words[mid].start <= time) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found >= 0 && time <= words[found].end + 0.25 ? found : -1;
}

export function TranscriptReader({ transcript, audioUrl }: { transcript: Transcript; audioUrl?: string }) {
  const audio = useRef<HTMLAudioElement>(null);
  const [active, setActive] = useState(-1);
  const segments = useMemo(() => groupWords(transcript), [transcript]);
  const speakers = useMemo(() => speakersInOrder(transcript), [transcript]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: audioUrl: the <audio> appears once its asset has loaded
  useEffect(() => {
    const element = audio.current;
    if (!element) return;
    let frame = 0;
    const tick = () => {
      setActive(wordAt(transcript.words, element.currentTime));
      if (!element.paused) frame = requestAnimationFrame(tick);
    };
    const start = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(tick);
    };
    element.addEventListener('play', start);
    element.addEventListener('seeked', tick);
    element.addEventListener('timeupdate', tick);
    return () => {
      cancelAnimationFrame(frame);
      element.removeEventListener('play', start);
      element.removeEventListener('seeked', tick);
      element.removeEventListener('timeupdate', tick);
    };
  }, [transcript.words, audioUrl]);

  const seek = (time: number) => {
    const element = audio.current;
    if (!element) return;
    element.currentTime = time;
    void element.play().catch(() => undefined);
  };

  return (
    <div className="reader">
      {audioUrl && (
        // biome-ignore lint/a11y/useMediaCaption: the transcript beside it is the caption
        <audio
          ref={audio}
          className="reader-audio"
          controls
          preload="metadata"
          src={audioUrl}
          aria-label="Recording"
        />
      )}
      <div className="reader-text" data-testid="transcript-words">
        {segments.length === 0 && <p className="muted">{transcript.text || 'No speech was recognised.'}</p>}
        {segments.map((segment, i) => (
          <SegmentView
            key={segment.id}
            segment={segment}
            turn={
              segment.speaker !== segments[i - 1]?.speaker
                ? speakerTurn(segment.speaker, speakers)
                : undefined
            }
            active={
              active >= (segment.words[0]?.index ?? 0) && active <= (segment.words.at(-1)?.index ?? -1)
                ? active
                : -1
            }
            onSeek={seek}
          />
        ))}
      </div>
    </div>
  );
}

const SegmentView = memo(function SegmentView({
  segment,
  turn,
  active,
  onSeek,
}: {
  segment: Segment;
  turn?: Turn;
  active: number;
  onSeek: (t: number) => void;
}) {
  return (
    <p className="segment">
      {turn && (
        <span className="segment-speaker" data-tone={turn.tone}>
          {turn.speaker}
        </span>
      )}
      <button
        type="button"
        className="segment-time"
        onClick={() => onSeek(segment.start)}
        aria-label={`Play from ${formatDuration(segment.start)}`}
      >
        {formatDuration(segment.start)}
      </button>
      <span className="segment-words">
        {segment.words.length
          ? segment.words.map(({ word, index }) => (
              // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: a tab stop per word would bury the page; the segment's time button is the keyboard path
              <span
                key={index}
                className={`word${index === active ? ' active' : ''}`}
                data-start={word.start}
                aria-current={index === active ? 'true' : undefined}
                onClick={() => onSeek(word.start)}
              >
                {word.word}
              </span>
            ))
          : segment.text}
      </span>
    </p>
  );
});
