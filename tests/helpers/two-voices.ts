/**
 * A generated interview: two espeak-ng voices, one per channel of a stereo WAV, taking turns with a second of
 * silence between turns, so each turn's span (and so who speaks when) is known to the millisecond. sox places them.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export type Turn = { channel: 0 | 1; start: number; end: number };
export type TwoVoices = { stereo: string; mono: string; dualMono: string; turns: Turn[] };

const VOICES = [
  ['-v', 'en-us', '-p', '60'],
  ['-v', 'en-gb-scotland', '-p', '20'],
] as const;
const GAP_SECONDS = 1;
const RATE = '16000';

/** Each line is spoken on channel 0, 1, 0, 1 ... in turn. Also writes the same recording as mono and dual mono. */
export function twoVoiceInterview(dir: string, lines: string[]): TwoVoices {
  const turns: Turn[] = [];
  const pieces: [string[], string[]] = [[], []];
  let at = 0;
  lines.forEach((line, i) => {
    const channel = (i % 2) as 0 | 1;
    const clip = resample(speakAs(dir, `turn-${i}`, line, channel), join(dir, `turn-${i}-16k.wav`));
    const seconds = Number(execFileSync('soxi', ['-D', clip], { encoding: 'utf8' }));
    const quiet = silence(dir, `quiet-${i}`, seconds);
    const gap = silence(dir, `gap-${i}`, GAP_SECONDS);
    pieces[channel].push(clip, gap);
    pieces[1 - channel].push(quiet, gap);
    turns.push({ channel, start: at, end: at + seconds });
    at += seconds + GAP_SECONDS;
  });
  const [left, right] = pieces.map((files, c) => {
    const out = join(dir, `channel-${c}.wav`);
    execFileSync('sox', [...files, out]);
    return out;
  });
  const stereo = join(dir, 'interview-stereo.wav');
  execFileSync('sox', ['-M', left, right, stereo]);
  const mono = join(dir, 'interview-mono.wav');
  execFileSync('sox', [stereo, mono, 'remix', '1,2']);
  const dualMono = join(dir, 'interview-dual-mono.wav');
  execFileSync('sox', [mono, dualMono, 'remix', '1', '1']);
  return { stereo, mono, dualMono, turns };
}

function speakAs(dir: string, name: string, text: string, channel: 0 | 1): string {
  const wav = join(dir, `${name}.wav`);
  execFileSync('espeak-ng', [...VOICES[channel], '-w', wav, text]);
  return wav;
}

function resample(wav: string, out: string): string {
  execFileSync('sox', [wav, '-r', RATE, '-c', '1', '-b', '16', out]);
  return out;
}

function silence(dir: string, name: string, seconds: number): string {
  const out = join(dir, `${name}.wav`);
  execFileSync('sox', ['-n', '-r', RATE, '-c', '1', '-b', '16', out, 'trim', '0', String(seconds)]);
  return out;
}
