import { Archive, ArchiveRestore, ExternalLink } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Label, Radio, RadioGroup } from 'react-aria-components';
import { toast } from 'sonner';
import type { PublicationDetail, Visibility } from '../../api/types';
import { Button, ButtonLink } from '../button';
import { CopyButton } from '../copy';
import { formatDateTime, formatRelative } from '../format';
import { SidePanel } from '../side-panel';
import { ErrorState, Skeleton } from '../states';
import type { PublicationHooks } from './publication-hooks';
import { VISIBILITY } from './visibility';

type PublicationPanelProps = {
  hooks: PublicationHooks;
  slug: string;
  singular: string;
  renderPreview: (item: PublicationDetail, version: number) => ReactNode;
  onClose: () => void;
};

export function PublicationPanel({ hooks, slug, singular, renderPreview, onClose }: PublicationPanelProps) {
  const [version, setVersion] = useState<number | undefined>();
  const item = hooks.useOne(slug, version);
  const versions = hooks.useVersions(slug);
  const visibility = hooks.useVisibility();
  const archive = hooks.useArchive();
  const data = item.data;
  const shown = version ?? data?.version;
  const pageUrl = data ? (version ? `${data.urls.page}?version=${version}` : data.urls.page) : '';

  return (
    <SidePanel title={data?.title ?? singular} label={`${singular} details`} onClose={onClose}>
      {item.isPending ? (
        <Skeleton height={220} />
      ) : item.isError ? (
        <ErrorState error={item.error} title={`This ${singular.toLowerCase()} could not be loaded`} />
      ) : (
        data && (
          <>
            <div className="publication-preview">{renderPreview(data, shown ?? data.version)}</div>
            <div className="row">
              <ButtonLink size="sm" href={pageUrl} target="_blank" icon={<ExternalLink size={14} />}>
                Open page
              </ButtonLink>
              <CopyButton text={pageUrl} label="Copy link" what="Link copied" />
              <span className="spacer" />
              <Button
                size="sm"
                variant="ghost"
                icon={data.archived ? <ArchiveRestore size={14} /> : <Archive size={14} />}
                isDisabled={archive.isPending}
                onPress={() =>
                  archive.mutate(
                    { slug, archived: !data.archived },
                    {
                      onSuccess: () =>
                        toast.success(
                          data.archived ? 'Restored' : 'Archived: its page answers 404 until restored',
                        ),
                      onError: (e) => toast.error(e.message),
                    },
                  )
                }
              >
                {data.archived ? 'Unarchive' : 'Archive'}
              </Button>
            </div>
            {data.description && <p className="muted small">{data.description}</p>}
            <RadioGroup
              className="visibility-group"
              value={data.visibility}
              isDisabled={visibility.isPending}
              onChange={(v) =>
                visibility.mutate(
                  { slug, visibility: v as Visibility },
                  {
                    onSuccess: () => toast.success(`Now ${VISIBILITY[v as Visibility].label.toLowerCase()}`),
                    onError: (e) => toast.error(e.message),
                  },
                )
              }
            >
              <Label className="field-label">Who can open it</Label>
              {(Object.keys(VISIBILITY) as Visibility[]).map((v) => {
                const { label, help, icon: Icon } = VISIBILITY[v];
                return (
                  <Radio key={v} value={v} className="visibility-option">
                    <Icon size={16} aria-hidden />
                    <span className="cell-title">
                      <span className="visibility-label">{label}</span>
                      <span className="cell-sub">{help}</span>
                    </span>
                  </Radio>
                );
              })}
            </RadioGroup>
            <section className="stack versions" aria-label="Versions">
              <h3 className="subheading">Versions</h3>
              {versions.isPending ? (
                <Skeleton height={60} />
              ) : (
                <ul className="version-list">
                  {(versions.data ?? []).map((v) => (
                    <li key={v.version}>
                      <button
                        type="button"
                        className={`version-item${v.version === shown ? ' current' : ''}`}
                        aria-current={v.version === shown || undefined}
                        onClick={() => setVersion(v.version === data.latestVersion ? undefined : v.version)}
                      >
                        <span className="version-number">v{v.version}</span>
                        <span className="truncate">{v.title}</span>
                        <span className="muted xs" title={formatDateTime(v.createdAt)}>
                          {v.version === data.latestVersion ? 'latest' : formatRelative(v.createdAt)}
                        </span>
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </>
        )
      )}
    </SidePanel>
  );
}
