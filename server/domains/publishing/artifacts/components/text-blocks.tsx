/** heading, markdown, callout, timeline. */
import { MarkdownText } from './markdown.js';

type HeadingProps = { text: string; level?: 1 | 2 | 3; eyebrow?: string };

export const anchorOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);

export function Heading({ text, level = 2, eyebrow }: HeadingProps) {
  const Tag = `h${level}` as 'h1' | 'h2' | 'h3';
  return (
    <header className={`fo-heading fo-heading-${level}`}>
      {eyebrow && <p className="fo-eyebrow">{eyebrow}</p>}
      <Tag id={anchorOf(text)}>{text}</Tag>
    </header>
  );
}

const TONE_LABEL = { info: 'Note', success: 'Success', warning: 'Warning', danger: 'Important' } as const;

export function Callout({
  tone = 'info',
  title,
  text,
}: {
  tone?: keyof typeof TONE_LABEL;
  title?: string;
  text: string;
}) {
  return (
    <aside className={`fo-callout fo-tone-${tone}`} aria-label={title ?? TONE_LABEL[tone]}>
      <span className="fo-callout-mark" aria-hidden="true" />
      <div>
        {title && <p className="fo-callout-title">{title}</p>}
        <MarkdownText text={text} />
      </div>
    </aside>
  );
}

type TimelineItem = {
  date: string;
  title: string;
  text?: string;
  tone?: 'neutral' | 'success' | 'warning' | 'danger';
};

export function Timeline({ items }: { items: TimelineItem[] }) {
  return (
    <ol className="fo-timeline">
      {items.map((item, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: items have no identity beyond their order
        <li key={i} className={`fo-tone-${item.tone ?? 'neutral'}`}>
          <span className="fo-timeline-dot" aria-hidden="true" />
          <p className="fo-timeline-date">{item.date}</p>
          <p className="fo-timeline-title">{item.title}</p>
          {item.text && <MarkdownText text={item.text} />}
        </li>
      ))}
    </ol>
  );
}
