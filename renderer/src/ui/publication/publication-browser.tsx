// What the Diagrams, Charts and Artifacts screens share: the list with filters and the detail panel with
// preview, versions, visibility and archive. Each feature passes its own API hooks and its preview.
import { Archive, PackageOpen } from 'lucide-react';
import { type ReactNode, useDeferredValue, useMemo, useRef, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { isApiError } from '../../api/client';
import type { PublicationDetail } from '../../api/types';
import { Badge } from '../badge';
import { Button } from '../button';
import { Checkbox, SearchField, TextField } from '../field';
import { formatRelative } from '../format';
import { Page } from '../page';
import { Select } from '../select';
import { EmptyState, ErrorState, LoadingRows } from '../states';
import type { PublicationHooks } from './publication-hooks';
import { PublicationPanel } from './publication-panel';
import { VisibilityBadge } from './visibility';
import './publication.css';

export type PublicationBrowserProps = {
  section: string;
  title: string;
  singular: string;
  description: string;
  icon: ReactNode;
  hooks: PublicationHooks;
  /** Diagrams have kinds: the filter offers every kind seen in the list. */
  hasKinds?: boolean;
  renderPreview: (item: PublicationDetail, version: number) => ReactNode;
  agentHint: ReactNode;
};

export function PublicationBrowser(props: PublicationBrowserProps) {
  const { section, title, description, icon, hooks, hasKinds, agentHint } = props;
  const { slug } = useParams();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [q, setQ] = useState(params.get('q') ?? '');
  const [tag, setTag] = useState(params.get('tag') ?? '');
  const kind = params.get('kind') ?? 'all';
  const includeArchived = params.get('archived') === '1';
  const deferredQ = useDeferredValue(q);
  const deferredTag = useDeferredValue(tag);
  const filters = useMemo(
    () => ({
      q: deferredQ.trim() || undefined,
      tag: deferredTag.trim() || undefined,
      kind: kind === 'all' ? undefined : kind,
      includeArchived,
    }),
    [deferredQ, deferredTag, kind, includeArchived],
  );
  const list = hooks.useList(filters);
  const items = list.data?.pages.flatMap((p) => p.data) ?? [];
  const setParam = (name: string, value?: string) =>
    setParams(
      (p) => {
        if (value) p.set(name, value);
        else p.delete(name);
        return p;
      },
      { replace: true },
    );
  const unavailable = isApiError(list.error, 404);
  const seenKinds = useRef(new Set<string>());
  for (const item of items) if (item.kind) seenKinds.current.add(item.kind);
  if (kind !== 'all') seenKinds.current.add(kind);
  const kinds = hasKinds ? [...seenKinds.current].sort().map((k) => ({ id: k, label: k })) : undefined;

  return (
    <Page
      title={title}
      description={description}
      toolbar={
        !unavailable && (
          <>
            <SearchField
              aria-label={`Search ${title.toLowerCase()}`}
              placeholder="Search titles"
              value={q}
              onChange={setQ}
            />
            {hasKinds && kinds && (
              <Select
                label="Kind"
                hideLabel
                options={[{ id: 'all', label: 'All kinds' }, ...kinds]}
                value={kind}
                onChange={(k) => setParam('kind', k === 'all' ? undefined : k)}
              />
            )}
            <div className="tag-filter">
              <TextField aria-label="Filter by tag" placeholder="Tag" value={tag} onChange={setTag} />
            </div>
            <Checkbox
              isSelected={includeArchived}
              onChange={(on) => setParam('archived', on ? '1' : undefined)}
            >
              Show archived
            </Checkbox>
          </>
        )
      }
      panel={
        slug &&
        !unavailable && (
          <PublicationPanel
            {...props}
            slug={slug}
            onClose={() => navigate(`/${section}${window.location.search}`)}
          />
        )
      }
    >
      {list.isPending ? (
        <LoadingRows label={`Loading ${title.toLowerCase()}`} />
      ) : unavailable ? (
        <EmptyState icon={<PackageOpen size={20} />} title={`${title} are not available on this server yet`}>
          This Folio has no publishing routes. Update Folio to publish {title.toLowerCase()} from your agents.
        </EmptyState>
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => list.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState
          icon={icon}
          title={
            filters.q || filters.tag || filters.kind
              ? `No ${title.toLowerCase()} match`
              : `No ${title.toLowerCase()} yet`
          }
        >
          {agentHint}
        </EmptyState>
      ) : (
        <table className="table publication-table">
          <thead>
            <tr>
              <th>Title</th>
              {kinds && <th>Kind</th>}
              <th>Visibility</th>
              <th className="num">Version</th>
              <th>Updated</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr
                key={item.slug}
                className={item.slug === slug ? 'selected' : undefined}
                onClick={() => navigate(`/${section}/${item.slug}${window.location.search}`)}
              >
                <td>
                  <div className="cell-title">
                    <a
                      href={`/${section}/${item.slug}`}
                      className="row-link"
                      onClick={(event) => {
                        event.preventDefault();
                        navigate(`/${section}/${item.slug}${window.location.search}`);
                      }}
                    >
                      {item.title}
                    </a>
                    <span className="cell-sub">
                      <span className="mono">{item.slug}</span>
                      {item.tags.map((t) => (
                        <span key={t} className="chip">
                          {t}
                        </span>
                      ))}
                    </span>
                  </div>
                </td>
                {kinds && <td className="muted">{item.kind ?? '—'}</td>}
                <td>
                  <div className="row">
                    <VisibilityBadge visibility={item.visibility} />
                    {item.archived && (
                      <Badge>
                        <Archive size={12} /> Archived
                      </Badge>
                    )}
                  </div>
                </td>
                <td className="num muted">v{item.latestVersion}</td>
                <td className="muted nowrap">{formatRelative(item.updatedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list.hasNextPage && (
        <div className="load-more">
          <Button onPress={() => list.fetchNextPage()} isDisabled={list.isFetchingNextPage}>
            Load more
          </Button>
        </div>
      )}
    </Page>
  );
}
