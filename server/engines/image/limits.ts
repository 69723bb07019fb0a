/** Bounds for image work (pixel bombs: at most 50 megapixels decoded). */
export const MAX_INPUT_PIXELS = 50_000_000;
export const MAX_OUTPUT_EDGE = 4096;
export const SHARP_INPUT = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' } as const;
