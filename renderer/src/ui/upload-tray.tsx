import { CheckCircle2, X, XCircle } from 'lucide-react';
import type { UploadItem } from '../api/use-upload-queue';
import { Button } from './button';
import { formatBytes } from './format';
import { ProgressBar } from './progress';

const active = (i: UploadItem) => ['queued', 'uploading', 'processing'].includes(i.status);

/** The floating list of uploads in flight: per-file progress, cancel, then the outcome. */
export function UploadTray({
  items,
  onCancel,
  onClear,
  processingLabel = 'Processing',
}: {
  items: UploadItem[];
  onCancel: (id: number) => void;
  onClear: () => void;
  processingLabel?: string;
}) {
  if (!items.length) return null;
  const running = items.filter(active).length;
  return (
    <section className="upload-tray" aria-label="Uploads">
      <header className="upload-tray-header">
        <span>{running ? `Uploading ${running} of ${items.length}` : `${items.length} finished`}</span>
        {!running && (
          <Button size="sm" variant="ghost" onPress={onClear}>
            Clear
          </Button>
        )}
      </header>
      <ul className="upload-list">
        {items.map((item) => (
          <li
            key={item.id}
            className={`upload-item ${item.status}`}
            aria-label={`${item.name}: ${item.status}`}
          >
            <div className="upload-item-top">
              <span className="truncate upload-name">{item.name}</span>
              <span className="upload-meta">
                {item.status === 'uploading' &&
                  `${Math.round((item.loaded / Math.max(1, item.size)) * 100)}%`}
                {item.status === 'queued' && 'Waiting'}
                {item.status === 'processing' && processingLabel}
                {item.status === 'done' && <CheckCircle2 size={14} aria-label="done" className="success" />}
                {item.status === 'failed' && <XCircle size={14} aria-label="failed" className="danger" />}
                {item.status === 'cancelled' && 'Cancelled'}
              </span>
              {(item.status === 'uploading' || item.status === 'queued') && (
                <Button
                  size="sm"
                  variant="ghost"
                  iconOnly
                  icon={<X size={14} />}
                  aria-label={`Cancel ${item.name}`}
                  onPress={() => onCancel(item.id)}
                />
              )}
            </div>
            {active(item) ? (
              <ProgressBar
                label={`Uploading ${item.name}`}
                value={
                  item.status === 'processing' ? undefined : item.size ? (item.loaded / item.size) * 100 : 0
                }
              />
            ) : (
              <span className="upload-sub">{item.error ?? formatBytes(item.size)}</span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
