// What a run is doing, for the status route and the CLI: per phase, items and bytes done of the totals known so far;
// per-item errors; counts of what happened.
export const PHASES = ['plan', 'upload', 'push', 'pull'] as const;
export type PhaseName = (typeof PHASES)[number];
export type PhaseProgress = { done: number; total: number; bytesDone: number; bytesTotal: number };
export type ItemError = { kind: string; id: string; phase: PhaseName; error: string };

export function createProgress(onChange?: (progress: Progress) => void) {
  const phases = Object.fromEntries(
    PHASES.map((p) => [p, { done: 0, total: 0, bytesDone: 0, bytesTotal: 0 }]),
  ) as Record<PhaseName, PhaseProgress>;
  const progress = {
    phase: null as PhaseName | null,
    phases,
    counts: {} as Record<string, number>,
    errors: [] as ItemError[],
    enter(phase: PhaseName) {
      progress.phase = phase;
      onChange?.(progress);
    },
    add(phase: PhaseName, total: number, bytes = 0) {
      phases[phase].total += total;
      phases[phase].bytesTotal += bytes;
      onChange?.(progress);
    },
    step(phase: PhaseName, done = 1, bytes = 0) {
      phases[phase].done += done;
      phases[phase].bytesDone += bytes;
      onChange?.(progress);
    },
    count(name: string, n = 1) {
      if (n) progress.counts[name] = (progress.counts[name] ?? 0) + n;
    },
    error(error: ItemError) {
      progress.errors.push(error);
      progress.count('failed');
      onChange?.(progress);
    },
    snapshot() {
      return {
        phase: progress.phase,
        phases: structuredClone(phases),
        counts: { ...progress.counts },
        errors: [...progress.errors],
      };
    },
  };
  return progress;
}

export type Progress = ReturnType<typeof createProgress>;
export type ProgressSnapshot = ReturnType<Progress['snapshot']>;
