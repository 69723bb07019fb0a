// Every list's three other faces: empty (what it is, one action to start), loading, and error.

import { AlertTriangle, RotateCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { isApiError } from '../api/client';
import { Button } from './button';

export function EmptyState({
  icon,
  title,
  children,
  action,
}: {
  icon?: ReactNode;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="empty-state" role="status">
      {icon && (
        <div className="empty-icon" aria-hidden>
          {icon}
        </div>
      )}
      <h2 className="empty-title">{title}</h2>
      {children && <div className="empty-text">{children}</div>}
      {action && <div className="empty-action">{action}</div>}
    </div>
  );
}

export function ErrorState({
  error,
  onRetry,
  title = 'Could not load this',
}: {
  error: unknown;
  onRetry?: () => void;
  title?: string;
}) {
  const message = error instanceof Error ? error.message : String(error);
  const hint = isApiError(error, 0) ? 'Is the Folio server still running?' : undefined;
  return (
    <div className="empty-state error-state" role="alert">
      <div className="empty-icon danger" aria-hidden>
        <AlertTriangle size={20} />
      </div>
      <h2 className="empty-title">{title}</h2>
      <div className="empty-text">
        {message}
        {hint && <div>{hint}</div>}
      </div>
      {onRetry && (
        <div className="empty-action">
          <Button onPress={onRetry} icon={<RotateCw size={14} />}>
            Try again
          </Button>
        </div>
      )}
    </div>
  );
}

export function Skeleton({ width = '100%', height = 12 }: { width?: number | string; height?: number }) {
  return <span className="skeleton" style={{ width, height }} aria-hidden />;
}

/** Placeholder rows while a list loads; announced once to screen readers. */
export function LoadingRows({ rows = 6, label = 'Loading' }: { rows?: number; label?: string }) {
  return (
    <div className="loading-rows" role="status" aria-label={label} aria-busy="true">
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <div className="loading-row" key={i}>
          <Skeleton width={28} height={28} />
          <div className="loading-row-lines">
            <Skeleton width={`${40 + ((i * 17) % 40)}%`} />
            <Skeleton width={`${20 + ((i * 11) % 20)}%`} height={10} />
          </div>
        </div>
      ))}
    </div>
  );
}

export function Spinner({ size = 16, label }: { size?: number; label?: string }) {
  return (
    <span
      className="spinner"
      style={{ width: size, height: size }}
      {...(label ? { role: 'status', 'aria-label': label } : { 'aria-hidden': true })}
    />
  );
}
