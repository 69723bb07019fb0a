/** Named presets: macros in the cascade, so ops after them override what they set. `thumb` fits within 256×256: clients rely on it. */
import type { TransformOps } from './transform-ops.js';

export const IMAGE_PRESETS: Record<string, TransformOps> = {
  thumb: { width: 256, height: 256, fit: 'inside' },
  small: { width: 640, height: 640, fit: 'inside' },
  medium: { width: 1280, height: 1280, fit: 'inside' },
  large: { width: 2048, height: 2048, fit: 'inside' },
  og: { width: 1200, height: 630, fit: 'cover', format: 'jpeg', quality: 85 },
};
