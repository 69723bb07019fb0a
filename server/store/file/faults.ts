// A test seam for the file backend: before each write step it asks whether to fail it, as a full disk or a failing
// device would (ENOSPC, EIO), optionally after writing part of the bytes. Nothing in production passes one.

export type WriteStep = {
  op: 'journal-append' | 'journal-sync' | 'snapshot-write' | 'blob-write' | 'blob-move';
  path: string;
};

export type Fault = {
  code: 'ENOSPC' | 'EIO' | 'EDQUOT' /** Write this many bytes first (a short write). */;
  afterBytes?: number;
};

export type FaultInjector = (step: WriteStep) => Fault | undefined;

export function injectedError(fault: Fault, step: WriteStep): NodeJS.ErrnoException {
  return Object.assign(new Error(`${fault.code}: injected fault on ${step.op} ${step.path}`), {
    code: fault.code,
  });
}
