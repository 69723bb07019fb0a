// What `folio add` shows while it works: one progress line (rewritten in place on a terminal, once every few
// seconds otherwise) and a summary at the end.
export type Tally = { added: number; skipped: number; failed: number; bytes: number };

export function createProgress(write: (text: string) => void, interactive: boolean) {
  const started = performance.now();
  const tally: Tally = { added: 0, skipped: 0, failed: 0, bytes: 0 };
  let shownAt = 0;
  const seconds = () => (performance.now() - started) / 1000;
  const rate = () => Math.round((tally.added + tally.skipped) / Math.max(seconds(), 0.001));
  const line = () =>
    `${tally.added} added, ${tally.skipped} already there, ${tally.failed} failed · ${rate()} files/s · ${megabytes(tally.bytes)}`;

  return {
    tally,
    /** Shows the line when it is due: every 100 ms on a terminal, every second in a log. */
    tick() {
      const now = performance.now();
      if (now - shownAt < (interactive ? 100 : 1000)) return;
      shownAt = now;
      write(interactive ? `\r${line()}\x1b[K` : `${line()}\n`);
    },
    summary(extra: string[]): string {
      if (interactive && shownAt) write('\r\x1b[K');
      const took = `${seconds().toFixed(1)} s`;
      return [`Added ${tally.added} files (${megabytes(tally.bytes)}) in ${took}, ${rate()} files/s`]
        .concat(`Skipped ${tally.skipped} whose content the workspace already holds`)
        .concat(tally.failed ? [`Failed ${tally.failed} (named above)`] : [])
        .concat(extra)
        .join('\n');
    },
  };
}

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
