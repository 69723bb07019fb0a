/**
 * The artifact page: the document rendered by the catalog's components (React's server renderer) inside
 * the shared page shell, with the page's own script and styles allowed by hash. Runs in a render worker.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { type PageMeta, renderPageShell } from '../pages/page-shell.js';
import { BASE_CSS } from '../pages/page-styles.js';
import { ARTIFACT_CSS } from './artifact-page-styles.js';
import { Blocks } from './components/blocks.js';
import { type Resolved, ResolvedContext } from './components/resolved.js';
import { ARTIFACT_SCRIPT } from './page-script.js';

export type ArtifactPageInput = {
  origin: string;
  meta: PageMeta;
  document: { children: unknown[] };
  resolved: Resolved;
  header: { title: string; description?: string; tags: string[]; version: number; updatedAt: string };
};

export function renderArtifactPage(input: ArtifactPageInput) {
  const { document, resolved, header } = input;
  const first = document.children[0] as { type?: string; level?: number } | undefined;
  const ownTitle = first?.type === 'heading' && first.level === 1;
  const body = renderToStaticMarkup(
    <ResolvedContext.Provider value={resolved}>
      <main className="fo-page">
        {!ownTitle && (
          <header className="fo-page-header">
            <h1 className="fo-page-title">{header.title}</h1>
            {header.description && <p className="fo-page-description">{header.description}</p>}
          </header>
        )}
        <article className="fo-doc">
          <Blocks list={document.children} pointer="/children" />
        </article>
        <footer className="fo-page-footer">
          <span>
            Version {header.version} · updated {header.updatedAt.slice(0, 10)}
            {header.tags.length > 0 && ` · ${header.tags.join(', ')}`}
          </span>
          <span>Published with Folio</span>
        </footer>
      </main>
    </ResolvedContext.Provider>,
  );
  const bodyStyles = Object.values(resolved.diagrams).flatMap((d) => ('styles' in d ? d.styles : []));
  return renderPageShell({
    origin: input.origin,
    meta: input.meta,
    body,
    styles: [BASE_CSS, ARTIFACT_CSS],
    bodyStyles,
    scripts: [ARTIFACT_SCRIPT],
  });
}
