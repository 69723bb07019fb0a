/** Markdown to React elements (react-markdown + GFM): raw HTML skipped, images shown as their alt text, links only http(s)/mailto. */
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { safeHref } from './safe-href.js';

const components: Components = {
  a: ({ href, children }) =>
    href ? (
      <a href={href} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    ) : (
      <span>{children}</span>
    ),
  img: ({ alt }) => <span className="fo-image-alt">{alt ? `[${alt}]` : ''}</span>,
};

export function MarkdownText({ text }: { text: string }) {
  return (
    <div className="fo-prose">
      <Markdown
        remarkPlugins={[remarkGfm]}
        skipHtml
        components={components}
        urlTransform={(url) => safeHref(url) ?? ''}
      >
        {text}
      </Markdown>
    </div>
  );
}
