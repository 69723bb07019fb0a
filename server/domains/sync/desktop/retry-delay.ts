// How long the desktop waits before trying again. Every wait is drawn at random, so desktops that failed together
// (a hosted Folio that restarted, a network that came back) do not all try again in the same second.

/** "Equal jitter": half of `ms` fixed, half drawn, so a wait is never shorter than half its backoff. */
export const withJitter = (ms: number, random: () => number = Math.random): number =>
  ms / 2 + (random() * ms) / 2;

/**
 * The wait before sending again a request answered 429 or 502–504: the Retry-After it named and up to a quarter more
 * (never sooner than the server asked), else 0.5 s doubling with each attempt, jittered. Neither base exceeds
 * `maxWaitMs`.
 */
export function retryDelayMs(
  retryAfterMs: number | undefined,
  attempt: number,
  maxWaitMs: number,
  random: () => number = Math.random,
): number {
  if (retryAfterMs === undefined) return withJitter(Math.min(maxWaitMs, 500 * 2 ** attempt), random);
  const base = Math.min(maxWaitMs, retryAfterMs);
  return base + (random() * base) / 4;
}
