/** Bounds for image work (reliability-anchors §3: pixel bombs; §C.15 ≤ 50 MP). */
export const MAX_INPUT_PIXELS = 50_000_000;
export const MAX_OUTPUT_EDGE = 4096;
export const SHARP_INPUT = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' } as const;
