import type { SyncStatus } from '@server/domains/sync/desktop/screen-schema';
import { AlertTriangle, CheckCircle2, CloudOff } from 'lucide-react';
import { Badge, type Tone } from '../../../ui/badge';
import { formatBytes, formatDateTime, formatRelative, pluralize } from '../../../ui/format';
import { ProgressBar } from '../../../ui/progress';
import { Properties } from '../../../ui/side-panel';
import { describeCounts, kindLabel, PHASES } from './labels';

const STATE: Record<SyncStatus['state'], [string, Tone]> = {
  off: ['Manual', 'neutral'],
  idle: ['Up to date', 'success'],
  running: ['Syncing', 'accent'],
  offline: ['Hosted Folio unreachable', 'warning'],
  failing: ['Failing', 'danger'],
};

/** Where sync stands: the state, the last successful sync, a run's live progress, and the last run's outcome. */
export function RunPanel({ status }: { status: SyncStatus }) {
  const [label, tone] = STATE[status.state];
  const last = status.lastRun;
  return (
    <div className="stack">
      <Properties
        items={[
          [
            'State',
            <Badge key="s" tone={tone} dot>
              {label}
            </Badge>,
          ],
          [
            'Last synced',
            <time
              key="t"
              dateTime={status.lastSuccessAt ?? undefined}
              title={formatDateTime(status.lastSuccessAt)}
            >
              {status.lastSuccessAt ? formatRelative(status.lastSuccessAt) : 'Never'}
            </time>,
          ],
          ...(status.nextRunAt
            ? ([['Next sync', formatRelative(status.nextRunAt)]] as [string, string][])
            : []),
        ]}
      />
      {status.running ? <Progress running={status.running} /> : last && <LastRun run={last} />}
    </div>
  );
}

function Progress({ running }: { running: NonNullable<SyncStatus['running']> }) {
  const at = Math.max(
    0,
    PHASES.findIndex(([id]) => id === running.phase),
  ); // no phase yet: planning starts
  return (
    <div className="sync-phases" aria-live="polite">
      {PHASES.map(([id, name], i) => {
        const p = running.phases[id] ?? { done: 0, total: 0, bytesDone: 0, bytesTotal: 0 };
        const state = i < at ? 'past' : i === at ? 'current' : 'next';
        // Bytes tell a file upload's progress better than a count of files.
        const fraction =
          p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : p.total > 0 ? p.done / p.total : null;
        const value =
          fraction !== null ? 100 * fraction : state === 'past' ? 100 : state === 'current' ? undefined : 0;
        const text =
          p.total > 0
            ? `${p.done.toLocaleString()} of ${p.total.toLocaleString()}`
            : { past: 'Nothing to do', current: 'Starting…', next: 'Waiting' }[state];
        return (
          <div key={id} className={`sync-phase ${state}`}>
            <div className="sync-phase-head">
              <span className="sync-phase-name">{name}</span>
              <span className="muted xs">
                {text}
                {p.bytesTotal > 0 && ` · ${formatBytes(p.bytesDone)} of ${formatBytes(p.bytesTotal)}`}
              </span>
            </div>
            <ProgressBar label={name} value={value} tone={value === 100 ? 'success' : 'accent'} />
          </div>
        );
      })}
      {running.errors.length > 0 && (
        <p className="danger small">
          {pluralize(running.errors.length, 'item')} failed so far; the run goes on with the rest.
        </p>
      )}
    </div>
  );
}

function LastRun({ run }: { run: NonNullable<SyncStatus['lastRun']> }) {
  const counts = describeCounts(run.counts);
  // A kind the key may not sync but of which there is nothing here skips nothing: not worth a line.
  const skipped = run.skipped.filter((s) => s.count !== 0);
  return (
    <div className="stack">
      {run.ok ? (
        <div className="callout success" role="status">
          <CheckCircle2 size={16} />
          <span>
            <strong>Last run finished {formatRelative(run.finishedAt)}.</strong>{' '}
            {counts || 'Nothing had changed on either side.'}
          </span>
        </div>
      ) : run.error ? (
        <div className={`callout ${run.offline ? 'warning' : 'danger'}`} role="alert">
          {run.offline ? <CloudOff size={16} /> : <AlertTriangle size={16} />}
          <span>
            <strong>{run.offline ? 'The hosted Folio could not be reached.' : 'The last run failed.'}</strong>{' '}
            {run.error}
            {counts && ` Done before it stopped: ${counts}.`}
          </span>
        </div>
      ) : (
        <div className="callout warning" role="status">
          <AlertTriangle size={16} />
          <span>
            <strong>
              Last run finished {formatRelative(run.finishedAt)}, with {pluralize(run.errors.length, 'item')}{' '}
              that could not sync (below).
            </strong>{' '}
            {counts}
          </span>
        </div>
      )}
      {skipped.length > 0 && (
        <div className="stack-sm">
          <h3 className="sync-subtitle">Skipped</h3>
          <ul className="sync-list">
            {skipped.map((s) => (
              <li key={`${s.kind}-${s.service}`}>
                <Badge tone="warning">
                  {s.count === undefined
                    ? kindLabel(s.kind)
                    : pluralize(s.count, kindLabel(s.kind).toLowerCase())}
                </Badge>
                <span>{s.reason}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {run.errors.length > 0 && (
        <div className="stack-sm">
          <h3 className="sync-subtitle">
            {pluralize(run.errors.length, 'item')} failed{' '}
            <span className="muted">(tried again next run)</span>
          </h3>
          <table className="table">
            <thead>
              <tr>
                <th>Item</th>
                <th>Step</th>
                <th>Error</th>
              </tr>
            </thead>
            <tbody>
              {run.errors.map((e) => (
                <tr key={`${e.kind}-${e.id}-${e.phase}`}>
                  <td>
                    <span className="muted">{kindLabel(e.kind)}</span> <span className="mono">{e.id}</span>
                  </td>
                  <td className="muted">{e.phase}</td>
                  <td className="danger">{e.error}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
