import { CheckCircle2, X, XCircle } from 'lucide-react';
import { Button } from '../../../ui/button';
import { formatBytes } from '../../../ui/format';
import { ProgressBar } from '../../../ui/progress';
import type { UploadItem } from './use-uploads';

export function UploadTray({
  items,
  onCancel,
  onClear,
}: {
  items: UploadItem[];
  onCancel: (id: number) => void;
  onClear: () => void;
}) {
  if (!items.length) return null;
  const active = items.filter((i) => i.status === 'queued' || i.status === 'uploading').length;
  return (
    <section className="upload-tray" aria-label="Uploads">
      <header className="upload-tray-header">
        <span>{active ? `Uploading ${active} of ${items.length}` : `${items.length} uploaded`}</span>
        {!active && (
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
            {item.status === 'uploading' || item.status === 'queued' ? (
              <ProgressBar
                label={`Uploading ${item.name}`}
                value={item.size ? (item.loaded / item.size) * 100 : undefined}
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
