/** What an image transform may set: size, fit, quality and output format (the cascade in transform-chain.ts). */
export const FITS = ['cover', 'contain', 'inside', 'fill', 'outside'] as const;
export const FORMATS = ['webp', 'avif', 'jpeg', 'png'] as const;
export type Fit = (typeof FITS)[number];
export type OutputFormat = (typeof FORMATS)[number];

export interface TransformOps {
  width?: number;
  height?: number;
  fit?: Fit;
  quality?: number;
  format?: OutputFormat | 'auto';
}
