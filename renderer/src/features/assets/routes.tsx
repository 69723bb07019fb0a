import { useQueryClient } from '@tanstack/react-query';
import { Grid2x2, Images, List, Upload } from 'lucide-react';
import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import { DropZone, FileTrigger } from 'react-aria-components';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import type { AssetType } from '../../api/types';
import { useUploadQueue } from '../../api/use-upload-queue';
import { wsKey } from '../../api/workspace-store';
import { Button } from '../../ui/button';
import { SearchField, TextField } from '../../ui/field';
import { pluralize } from '../../ui/format';
import { Page } from '../../ui/page';
import { Segmented } from '../../ui/segmented';
import { Select } from '../../ui/select';
import { EmptyState, ErrorState, LoadingRows } from '../../ui/states';
import { UploadTray } from '../../ui/upload-tray';
import { type AssetFilters, useAssets } from './api/list-assets';
import { uploadAsset } from './api/upload-asset';
import { AssetCollection } from './components/asset-grid';
import { AssetPanel } from './components/asset-panel';
import './assets.css';

const TYPES: { id: AssetType | 'all'; label: string }[] = [
  { id: 'all', label: 'All types' },
  { id: 'image', label: 'Images' },
  { id: 'audio', label: 'Audio' },
  { id: 'video', label: 'Video' },
  { id: 'document', label: 'Documents' },
  { id: 'svg', label: 'SVG' },
  { id: 'other', label: 'Other' },
];

export default function AssetsScreen() {
  const { id } = useParams();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const view = params.get('view') === 'list' ? 'list' : 'grid';
  const type = (params.get('type') ?? 'all') as AssetType | 'all';
  const [search, setSearch] = useState(params.get('q') ?? '');
  const [tags, setTags] = useState(params.get('tags') ?? '');
  const deferredSearch = useDeferredValue(search);
  const deferredTags = useDeferredValue(tags);
  const filters: AssetFilters = useMemo(
    () => ({
      type: type === 'all' ? undefined : type,
      search: deferredSearch.trim() || undefined,
      tags: deferredTags.trim() || undefined,
    }),
    [type, deferredSearch, deferredTags],
  );
  const assets = useAssets(filters);
  const client = useQueryClient();
  const refresh = useCallback(
    () => void client.invalidateQueries({ queryKey: wsKey('assets', 'list') }),
    [client],
  );
  const uploads = useUploadQueue(uploadAsset, refresh);
  const [dropping, setDropping] = useState(false);
  const all = useMemo(() => assets.data?.pages.flatMap((p) => p.data) ?? [], [assets.data]);
  const setParam = (name: string, value: string | undefined) =>
    setParams(
      (p) => {
        if (value) p.set(name, value);
        else p.delete(name);
        return p;
      },
      { replace: true },
    );
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = assets;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const filtered = Boolean(filters.type || filters.search || filters.tags);

  const uploadButton = (variant: 'primary' | 'secondary' = 'primary') => (
    <FileTrigger allowsMultiple onSelect={(files) => files && uploads.add([...files])}>
      <Button variant={variant} icon={<Upload size={16} />}>
        Upload files
      </Button>
    </FileTrigger>
  );

  return (
    <Page
      title="Assets"
      description="Files for your agents and pages, each with public URLs for embedding, resizing and streaming."
      actions={uploadButton()}
      toolbar={
        <>
          <SearchField
            aria-label="Search assets"
            placeholder="Search names and tags"
            value={search}
            onChange={setSearch}
          />
          <Select
            label="Type"
            hideLabel
            options={TYPES}
            value={type}
            onChange={(t) => setParam('type', t === 'all' ? undefined : t)}
          />
          <div className="tag-filter">
            <TextField
              aria-label="Filter by tags"
              placeholder="Tags, comma separated"
              value={tags}
              onChange={setTags}
            />
          </div>
          <span className="spacer" />
          <span className="muted small" aria-live="polite">
            {assets.isSuccess && `${pluralize(all.length, 'asset')}${hasNextPage ? '+' : ''}`}
          </span>
          <Segmented
            label="View"
            value={view}
            onChange={(v) => setParam('view', v === 'grid' ? undefined : v)}
            options={[
              { id: 'grid', label: 'Grid', icon: <Grid2x2 size={14} />, iconOnly: true },
              { id: 'list', label: 'List', icon: <List size={14} />, iconOnly: true },
            ]}
          />
        </>
      }
      panel={
        id && (
          <AssetPanel
            id={id}
            listed={all.find((a) => a.id === id)}
            onClose={() => navigate(`/assets${window.location.search}`)}
          />
        )
      }
    >
      <DropZone
        className={`asset-drop${dropping ? ' dropping' : ''}`}
        aria-label="Drop files to upload"
        onDropEnter={() => setDropping(true)}
        onDropExit={() => setDropping(false)}
        onDrop={async (event) => {
          setDropping(false);
          const files = await Promise.all(
            event.items
              .filter((item) => item.kind === 'file')
              .map((item) => (item as { getFile(): Promise<File> }).getFile()),
          );
          uploads.add(files);
        }}
      >
        {assets.isPending ? (
          <LoadingRows label="Loading assets" />
        ) : assets.isError ? (
          <ErrorState error={assets.error} onRetry={() => assets.refetch()} />
        ) : all.length === 0 ? (
          filtered ? (
            <EmptyState icon={<Images size={20} />} title="No assets match">
              Try another search, type or tag.
            </EmptyState>
          ) : (
            <EmptyState icon={<Images size={20} />} title="Drop files here" action={uploadButton('primary')}>
              Images, audio, video and documents. Each file gets public URLs to embed, resize and stream.
            </EmptyState>
          )
        ) : (
          <AssetCollection
            assets={all}
            view={view}
            selectedId={id}
            hasMore={Boolean(hasNextPage)}
            onEndReached={loadMore}
          />
        )}
        {dropping && <div className="drop-hint">Drop to upload</div>}
      </DropZone>
      <UploadTray items={uploads.items} onCancel={uploads.cancel} onClear={uploads.clearFinished} />
    </Page>
  );
}
