// Words for what the sync routes report in identifiers.
export const PHASES = [
  ['plan', 'Comparing'],
  ['upload', 'Uploading files'],
  ['push', 'Sending changes'],
  ['pull', 'Fetching changes'],
] as const;

const COUNTS: Record<string, string> = {
  pushed: 'sent',
  pulled: 'received',
  deletedHere: 'deleted here',
  blobsUploaded: 'files uploaded',
  blobsDownloaded: 'files downloaded',
  unchanged: 'unchanged',
  conflicts: 'conflicts kept',
  errors: 'failed',
};

/** "pushed: 3, pulled: 1" as "3 sent · 1 received". */
export const describeCounts = (counts: Record<string, number>) =>
  Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([name, n]) => `${n.toLocaleString()} ${COUNTS[name] ?? words(name)}`)
    .join(' · ');

/** displayName → Display name. */
export const words = (name: string) => {
  const spaced = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
};

export const kindLabel = (kind: string) => words(kind);
