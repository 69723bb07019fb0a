/** Highlighted code: lowlight (highlight.js grammars) builds a syntax tree, rendered as React elements. */
import { toJsxRuntime } from 'hast-util-to-jsx-runtime';
import { common, createLowlight } from 'lowlight';
import { Fragment, jsx, jsxs } from 'react/jsx-runtime';

const lowlight = createLowlight(common);

function highlight(code: string, language?: string) {
  if (language && lowlight.registered(language)) return lowlight.highlight(language, code);
  return code.length < 20_000 ? lowlight.highlightAuto(code) : undefined;
}

export function CodeBlock({
  code,
  language,
  caption,
  lineNumbers,
}: {
  code: string;
  language?: string;
  caption?: string;
  lineNumbers?: boolean;
}) {
  const tree = highlight(code, language);
  const body = tree ? toJsxRuntime(tree, { Fragment, jsx, jsxs }) : code;
  const lines = lineNumbers ? code.split('\n').length : 0;
  return (
    <figure className="fo-code">
      <div className="fo-code-scroll">
        {lines > 0 && (
          <pre className="fo-code-gutter" aria-hidden="true">
            {Array.from({ length: lines }, (_, i) => i + 1).join('\n')}
          </pre>
        )}
        <pre>
          <code className={`hljs${language ? ` language-${language}` : ''}`}>{body}</code>
        </pre>
      </div>
      {caption && <figcaption>{caption}</figcaption>}
    </figure>
  );
}
