// The link to the server, lent to one pack's parts at a time in the order places were taken: a push batch's bytes
// arrive whole before the next batch's, while the requests around them (the next pack's begin, this pack's
// complete) go beside a neighbour's parts instead of leaving the link idle for their round trips.

/**
 * A place in line. `ready` resolves once every place taken before it is released, or rejects if a holder has failed
 * by then, even one that released the wire before failing (its complete, after its parts), so no later parts start.
 */
export type WirePlace = { ready: Promise<void>; release: (error?: unknown) => void };

export function createWire(): () => WirePlace {
  let last: Promise<void> = Promise.resolve();
  let failure: { error: unknown } | undefined;
  return function take() {
    const ready = last.then(() => {
      if (failure) throw failure.error;
    });
    ready.catch(() => undefined); // heard by the holder when it waits, if it gets there
    let release!: (error?: unknown) => void;
    const released = new Promise<void>((resolve, reject) => {
      release = (error) => {
        if (error === undefined) return resolve();
        failure ??= { error };
        reject(error);
      };
    });
    last = Promise.all([ready, released]).then(() => undefined);
    last.catch(() => undefined);
    return { ready, release };
  };
}
