// Render bounds for tests: the same pool, but a render may take minutes, so a machine shared with other
// work fails no test on time (the time bound itself is tested with its own small limit).
import type { ConfigInput } from '../../../../server/config.js';

export const SLOW_MACHINE: Partial<ConfigInput> = {
  render: { taskTimeoutMs: 180_000, cacheBytes: 64 << 20 },
};
