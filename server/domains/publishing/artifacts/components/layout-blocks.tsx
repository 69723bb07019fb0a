/** tabs (ARIA tabs; the page script switches them), accordion (native <details>), grid. */
import type { ReactNode } from 'react';

type Render = (children: unknown[], pointer: string) => ReactNode;

export function Tabs({
  tabs,
  pointer,
  render,
}: {
  tabs: { label: string; children: unknown[] }[];
  pointer: string;
  render: Render;
}) {
  const id = `fo-tabs-${pointer.replace(/[^a-z0-9]/gi, '-')}`;
  return (
    <div className="fo-tabs" data-tabs="">
      <div role="tablist" className="fo-tablist">
        {tabs.map((tab, i) => (
          <button
            // biome-ignore lint/suspicious/noArrayIndexKey: tabs are positional
            key={i}
            type="button"
            role="tab"
            id={`${id}-tab-${i}`}
            aria-controls={`${id}-panel-${i}`}
            aria-selected={i === 0}
            tabIndex={i === 0 ? 0 : -1}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {tabs.map((tab, i) => (
        <div
          // biome-ignore lint/suspicious/noArrayIndexKey: tabs are positional
          key={i}
          role="tabpanel"
          id={`${id}-panel-${i}`}
          aria-labelledby={`${id}-tab-${i}`}
          hidden={i !== 0}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a tab panel is focusable so keyboard users reach its content (ARIA tabs pattern)
          tabIndex={0}
          className="fo-tabpanel"
        >
          {render(tab.children, `${pointer}/tabs/${i}/children`)}
        </div>
      ))}
    </div>
  );
}

export function Accordion({
  items,
  pointer,
  render,
}: {
  items: { title: string; open?: boolean; children: unknown[] }[];
  pointer: string;
  render: Render;
}) {
  return (
    <div className="fo-accordion">
      {items.map((item, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: sections are positional
        <details key={i} open={item.open}>
          <summary>{item.title}</summary>
          <div className="fo-accordion-body">{render(item.children, `${pointer}/items/${i}/children`)}</div>
        </details>
      ))}
    </div>
  );
}

export function Grid({
  columns = 2,
  children,
  pointer,
  render,
}: {
  columns?: 2 | 3 | 4;
  children: unknown[];
  pointer: string;
  render: Render;
}) {
  return <div className={`fo-grid fo-grid-${columns}`}>{render(children, `${pointer}/children`)}</div>;
}
