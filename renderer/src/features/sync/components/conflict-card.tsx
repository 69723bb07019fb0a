import type { Conflict } from '@server/domains/sync/desktop/screen-schema';
import { Cloud, Laptop } from 'lucide-react';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { formatDateTime, formatRelative } from '../../../ui/format';
import type { Keep } from '../api/resolve-conflict';
import { isVersionKind, kindLabel, versionNumberOf, words } from './labels';

type Copy = Conflict['winner'];
// Bookkeeping every version has; they differ on every edit and say nothing about the content.
const NOISE = new Set([
  'id',
  'workspaceId',
  'updatedAt',
  'seq',
  'rev',
  'version',
  'sha256',
  'blobKey',
  'derived',
]);

/** One record edited in both places: what it is called, both versions side by side, and the two ways out. */
export function ConflictCard({
  conflict,
  onResolve,
}: {
  conflict: Conflict;
  onResolve: (keep: Keep) => void;
}) {
  const name = nameOf(conflict);
  const fields = differingFields(conflict.winner, conflict.copy);
  const open = conflict.status === 'open';
  const mine = conflict.resolution === 'copy';
  const version = isVersionKind(conflict.kind);
  return (
    <article className="card sync-conflict" aria-labelledby={`conflict-${conflict.id}`}>
      <header className="sync-conflict-head">
        <div>
          <h3 className="sync-conflict-title" id={`conflict-${conflict.id}`}>
            {name}
          </h3>
          <p className="muted xs">
            {kindLabel(conflict.kind)} <span className="mono">{conflict.recordId}</span> · edited in both
            places, found{' '}
            <time title={formatDateTime(conflict.detectedAt)}>{formatRelative(conflict.detectedAt)}</time>
          </p>
        </div>
        {!open && (
          <Badge tone="success">
            {conflict.resolution !== 'copy'
              ? 'Hosted version kept'
              : version
                ? 'Your copy published again'
                : 'Your copy put back'}
          </Badge>
        )}
      </header>
      <table className="table sync-versions">
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Field</span>
            </th>
            <th scope="col">
              <span className="sync-version-head">
                <Cloud size={14} aria-hidden /> Hosted version{' '}
                <Badge tone={mine ? 'neutral' : 'accent'}>
                  {open ? 'In use' : mine ? (version ? 'Kept in history' : 'Replaced') : 'Chosen'}
                </Badge>
              </span>
            </th>
            <th scope="col">
              <span className="sync-version-head">
                <Laptop size={14} aria-hidden /> Your copy from this computer{' '}
                <Badge tone={mine ? 'accent' : 'neutral'}>
                  {open ? 'Kept' : mine ? 'Chosen' : 'Discarded'}
                </Badge>
              </span>
            </th>
          </tr>
        </thead>
        <tbody>
          {fields.map(([field, winner, copy]) => (
            <tr key={field}>
              <th scope="row" className="muted">
                {field}
              </th>
              <td>{winner}</td>
              <td>{copy}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {open && (
        <div className="row sync-conflict-actions">
          <Button size="sm" variant="primary" onPress={() => onResolve('winner')}>
            Keep hosted version
          </Button>
          <Button size="sm" onPress={() => onResolve('copy')}>
            {version ? 'Publish my copy as a new version' : 'Use my copy'}
          </Button>
        </div>
      )}
    </article>
  );
}

/** What the item is called now: the winner's name, or the copy's once it was put back; a version says which. */
export function nameOf(conflict: Conflict): string {
  const { winner, copy } = conflict;
  const order = conflict.resolution === 'copy' ? [copy.record, winner.record] : [winner.record, copy.record];
  const suffix = isVersionKind(conflict.kind) ? `, version ${versionNumberOf(conflict.recordId)}` : '';
  for (const record of order)
    for (const field of ['displayName', 'title', 'filename', 'name', 'slug'])
      if (typeof record?.[field] === 'string' && record[field]) return `${record[field]}${suffix}`;
  return conflict.recordId;
}

/** The fields whose values differ, as text; a deleted side reads "Deleted" once. */
function differingFields(winner: Copy, copy: Copy): [string, string, string][] {
  if (winner.deleted || copy.deleted)
    return [['State', stateOf(winner, 'on the hosted Folio'), stateOf(copy, 'here')]];
  const a = winner.record ?? {};
  const b = copy.record ?? {};
  const names = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter(
    (k) => !NOISE.has(k) && JSON.stringify(a[k]) !== JSON.stringify(b[k]),
  );
  const rows: [string, string, string][] = names.map((k) =>
    k === 'document'
      ? ['Content', describeDocument(a[k]), describeDocument(b[k])]
      : k === 'createdAt'
        ? ['Created', when(a[k]), when(b[k])]
        : [words(k), show(a[k]), show(b[k])],
  );
  if (!rows.length) rows.push(['Content', 'Same fields, different bytes', 'Same fields, different bytes']);
  if (typeof a.updatedAt === 'string' && typeof b.updatedAt === 'string')
    rows.push(['Edited', formatDateTime(a.updatedAt), formatDateTime(b.updatedAt)]);
  return rows;
}

const stateOf = (v: Copy, where: string) =>
  v.deleted ? `Deleted ${where}` : `Edited ${where}${v.hasBytes ? ' (its file is kept)' : ''}`;

const when = (value: unknown) => (typeof value === 'string' ? formatDateTime(value) : '—');

/**
 * A published document in a line: the words it shows (a diagram's labels, an artifact's headings and text, a
 * chart's title), not its markup.
 */
function describeDocument(value: unknown): string {
  const texts: string[] = [];
  const collect = (v: unknown, key = ''): void => {
    if (typeof v === 'string') {
      if (key === '') texts.push(v.replace(/<[^>]*>/g, ' '));
      else if (key === 'text' || key === 'title') texts.push(v);
    } else if (Array.isArray(v)) for (const x of v) collect(x, key === '' ? '' : 'item');
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) collect(x, k);
  };
  collect(value);
  const line = texts.join(' · ').replace(/\s+/g, ' ').trim();
  if (!line) return 'Different content';
  return line.length > 90 ? `${line.slice(0, 89)}…` : line;
}

function show(value: unknown): string {
  if (value === undefined || value === null || value === '') return '—';
  if (Array.isArray(value)) return value.length ? value.map(show).join(', ') : '—';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
