/**
 * Who spoke each segment of a recording made with one voice per channel (an interview with two microphones, a call
 * recorder's "me left, them right"): the channel that is clearly louder while the segment is spoken. The left
 * channel is "Speaker 1" and the right "Speaker 2" (docs/transcription.md "Speakers"). Pure.
 */
import { type ChannelEnergy, ENERGY_FRAME_SECONDS } from './channel-energy.js';
import type { Segment } from './types.js';

export const CHANNEL_SPEAKERS = ['Speaker 1', 'Speaker 2'] as const;

/** Channels whose difference holds under 1 % (-20 dB) of their energy carry one signal: mono, or a mono mix. */
const SAME_SIGNAL_RATIO = 0.01;
/** A segment's speaker is the channel at least this much louder; closer than that, both spoke or neither did. */
const LOUDER_BY_DB = 3;
/** Below -60 dBFS (mean square) nothing is being said on either channel. */
const SILENCE = 1e-6;
/** A segment shorter than this (Whisper gives some a zero length) is judged on this much audio about its middle. */
const SHORTEST_SPAN = 0.1;

/**
 * The segments with `speaker` where their channels tell; unchanged when the channels carry one signal, or when one
 * of them is silent throughout (one voice, recorded on one side).
 */
export function labelSpeakersByChannel(segments: Segment[], energy: ChannelEnergy): Segment[] {
  if (carriesOneSignal(energy) || !bothSound(energy)) return segments;
  return segments.map((segment) => {
    const speaker = louderChannel(segment, energy);
    return speaker ? { ...segment, speaker } : segment;
  });
}

function carriesOneSignal({ left, right, difference }: ChannelEnergy): boolean {
  const total = sum(left, 0, left.length) + sum(right, 0, right.length);
  return sum(difference, 0, difference.length) <= total * SAME_SIGNAL_RATIO;
}

function bothSound({ left, right }: ChannelEnergy): boolean {
  return left.some((e) => e >= SILENCE) && right.some((e) => e >= SILENCE);
}

function louderChannel({ start, end }: Segment, { left, right }: ChannelEnergy): string | undefined {
  const middle = (start + end) / 2;
  const from = Math.min(start, middle - SHORTEST_SPAN / 2);
  const to = Math.max(end, middle + SHORTEST_SPAN / 2);
  const first = Math.max(0, Math.floor(from / ENERGY_FRAME_SECONDS));
  const last = Math.min(left.length, Math.ceil(to / ENERGY_FRAME_SECONDS));
  if (last <= first) return undefined;
  const l = sum(left, first, last) / (last - first);
  const r = sum(right, first, last) / (last - first);
  if (Math.max(l, r) < SILENCE) return undefined;
  const decibels = 10 * Math.log10((l + Number.EPSILON) / (r + Number.EPSILON));
  if (decibels >= LOUDER_BY_DB) return CHANNEL_SPEAKERS[0];
  if (decibels <= -LOUDER_BY_DB) return CHANNEL_SPEAKERS[1];
  return undefined;
}

function sum(values: Float32Array, from: number, to: number): number {
  let total = 0;
  for (let i = from; i < to; i++) total += values[i];
  return total;
}
