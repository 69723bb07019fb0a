import { X } from 'lucide-react';
import { type ReactNode, useEffect, useRef } from 'react';
import { Button } from './button';

/** Details beside a list. Escape or the close button closes it; focus moves into it when it opens. */
export function SidePanel({
  title,
  onClose,
  children,
  actions,
  label,
}: {
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  actions?: ReactNode;
  label: string;
}) {
  const ref = useRef<HTMLElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus moves in again when another item opens
  useEffect(() => {
    ref.current?.focus();
  }, [label]);
  return (
    <aside
      className="side-panel"
      aria-label={label}
      ref={ref}
      tabIndex={-1}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !event.defaultPrevented) onClose();
      }}
    >
      <div className="side-panel-header">
        <h2 className="side-panel-title">{title}</h2>
        <div className="side-panel-actions">
          {actions}
          <Button
            variant="ghost"
            size="sm"
            iconOnly
            icon={<X size={16} />}
            aria-label="Close details"
            onPress={onClose}
          />
        </div>
      </div>
      <div className="side-panel-body">{children}</div>
    </aside>
  );
}

export function Properties({ items }: { items: [string, ReactNode][] }) {
  return (
    <dl className="properties">
      {items.map(([term, value]) => (
        <div className="property" key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
