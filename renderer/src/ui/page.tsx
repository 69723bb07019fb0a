// The content column: a header with the screen's title and actions, a toolbar above lists, the body.
import type { ReactNode } from 'react';

export function Page({
  title,
  description,
  actions,
  toolbar,
  children,
  panel,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  toolbar?: ReactNode;
  children: ReactNode;
  /** Details shown beside the list (a side panel). */
  panel?: ReactNode;
}) {
  return (
    <div className={`page${panel ? ' page-with-panel' : ''}`}>
      <div className="page-main">
        <header className="page-header">
          <div className="page-heading">
            <h1 className="page-title">{title}</h1>
            {description && <p className="page-description">{description}</p>}
          </div>
          {actions && <div className="page-actions">{actions}</div>}
        </header>
        {toolbar && (
          <div className="toolbar" role="toolbar" aria-label={`${title} filters`}>
            {toolbar}
          </div>
        )}
        <div className="page-body">{children}</div>
      </div>
      {panel}
    </div>
  );
}

export function Section({
  title,
  description,
  children,
  actions,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <section className="section">
      <div className="section-header">
        <div>
          <h2 className="section-title">{title}</h2>
          {description && <p className="section-description">{description}</p>}
        </div>
        {actions}
      </div>
      {children}
    </section>
  );
}
