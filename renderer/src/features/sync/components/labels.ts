// Words for what the sync routes report in identifiers.
import { formatBytes } from '../../../ui/format';

export const PHASES = [
  ['plan', 'Comparing'],
  ['upload', 'Uploading files'],
  ['push', 'Sending changes'],
  ['pull', 'Fetching changes'],
] as const;

// In the order a summary reads best; `partsSent` is the upload's own bookkeeping and stays out.
const COUNTS: [name: string, one: string, many: string][] = [
  ['pushed', 'change sent', 'changes sent'],
  ['pulled', 'change received', 'changes received'],
  ['deletedHere', 'deleted here', 'deleted here'],
  ['conflicts', 'conflict kept', 'conflicts kept'],
  ['blobsUploaded', 'file uploaded', 'files uploaded'],
  ['blobsDownloaded', 'file downloaded', 'files downloaded'],
  ['unchanged', 'unchanged', 'unchanged'],
  ['skipped', 'skipped', 'skipped'],
  ['failed', 'failed', 'failed'],
  ['waiting', 'waiting', 'waiting'],
];

/** `{ pushed: 3, bytesSent: 12 }` as "3 changes sent (12 B)". */
export function describeCounts(counts: Record<string, number>): string {
  const parts = COUNTS.filter(([name]) => counts[name]).map(
    ([name, one, many]) => `${counts[name].toLocaleString()} ${counts[name] === 1 ? one : many}`,
  );
  const known = new Set([...COUNTS.map(([name]) => name), 'partsSent', 'bytesSent']);
  for (const [name, n] of Object.entries(counts))
    if (n && !known.has(name)) parts.push(`${n.toLocaleString()} ${words(name).toLowerCase()}`);
  if (counts.bytesSent) parts.push(`${formatBytes(counts.bytesSent)} uploaded`);
  return parts.join(' · ');
}

/** displayName → Display name. */
export const words = (name: string) => {
  const spaced = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
};

const KINDS: Record<string, string> = {
  'diagram-version': 'Diagram version',
  'chart-version': 'Chart version',
  'artifact-version': 'Artifact version',
};
export const kindLabel = (kind: string) => KINDS[kind] ?? words(kind);

/** A publication's version (`<id>@<n>`), which comes back as a new version rather than over the winner. */
export const isVersionKind = (kind: string) => kind.endsWith('-version');
export const versionNumberOf = (recordId: string) => recordId.split('@')[1];
