// Virtualized grid and list: only the rows on screen are in the DOM, so 10,000 assets scroll like 10.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { Asset } from '../../../api/types';
import { formatBytes, formatRelative } from '../../../ui/format';
import { AssetIcon } from './asset-icon';

type Props = {
  assets: Asset[];
  selectedId?: string;
  hasMore: boolean;
  onEndReached: () => void;
  view: 'grid' | 'list';
};

const CARD_MIN = 176;
const CARD_HEIGHT = 212;
const ROW_HEIGHT = 52;

function useWidth(ref: React.RefObject<HTMLElement | null>) {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    if (!ref.current) return;
    const observer = new ResizeObserver(([entry]) => setWidth(entry.contentRect.width));
    observer.observe(ref.current);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

export function AssetCollection({ assets, selectedId, hasMore, onEndReached, view }: Props) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const width = useWidth(scrollRef);
  const columns = view === 'grid' ? Math.max(1, Math.floor((width + 12) / (CARD_MIN + 12))) : 1;
  const rows = Math.ceil(assets.length / columns);
  const virtualizer = useVirtualizer({
    count: rows,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => (view === 'grid' ? CARD_HEIGHT + 12 : ROW_HEIGHT),
    overscan: 6,
  });
  const items = virtualizer.getVirtualItems();
  const last = items[items.length - 1];
  useEffect(() => {
    if (hasMore && last && last.index >= rows - 8) onEndReached();
  }, [hasMore, last, rows, onEndReached]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new view has other row heights
  useEffect(() => {
    virtualizer.measure();
  }, [view, virtualizer]);

  return (
    <div className="asset-scroll" ref={scrollRef} data-testid="asset-scroll">
      <ul
        className={`asset-${view}`}
        style={{ height: virtualizer.getTotalSize() }}
        aria-label={`Assets, ${assets.length} loaded`}
      >
        {items.map((row) => (
          <li
            key={row.key}
            className="asset-row"
            style={{
              transform: `translateY(${row.start}px)`,
              height: row.size,
              gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
            }}
          >
            {assets
              .slice(row.index * columns, row.index * columns + columns)
              .map((asset) =>
                view === 'grid' ? (
                  <AssetCard key={asset.id} asset={asset} selected={asset.id === selectedId} />
                ) : (
                  <AssetLine key={asset.id} asset={asset} selected={asset.id === selectedId} />
                ),
              )}
          </li>
        ))}
      </ul>
    </div>
  );
}

function useOpen(asset: Asset) {
  const navigate = useNavigate();
  return (event: React.MouseEvent) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    navigate(`/assets/${asset.id}${window.location.search}`);
  };
}

function Thumb({ asset }: { asset: Asset }) {
  const [failed, setFailed] = useState(false);
  if (asset.urls.thumb && !failed)
    return (
      <img src={asset.urls.thumb} alt="" loading="lazy" decoding="async" onError={() => setFailed(true)} />
    );
  return (
    <span className={`asset-placeholder type-${asset.type}`}>
      <AssetIcon type={asset.type} size={28} />
    </span>
  );
}

function AssetCard({ asset, selected }: { asset: Asset; selected: boolean }) {
  const open = useOpen(asset);
  return (
    <a
      href={`/assets/${asset.id}`}
      className={`asset-card${selected ? ' selected' : ''}`}
      onClick={open}
      aria-current={selected || undefined}
    >
      <span className="asset-thumb">
        <Thumb asset={asset} />
      </span>
      <span className="asset-card-text">
        <span className="asset-name truncate">{asset.displayName}</span>
        <span className="asset-sub">
          {asset.type} · {formatBytes(asset.size)}
        </span>
      </span>
    </a>
  );
}

function AssetLine({ asset, selected }: { asset: Asset; selected: boolean }) {
  const open = useOpen(asset);
  return (
    <a
      href={`/assets/${asset.id}`}
      className={`asset-line${selected ? ' selected' : ''}`}
      onClick={open}
      aria-current={selected || undefined}
    >
      <span className="asset-line-thumb">
        <Thumb asset={asset} />
      </span>
      <span className="asset-name truncate">{asset.displayName}</span>
      <span className="asset-tags truncate">{asset.tags.map((t) => `#${t}`).join(' ')}</span>
      <span className="asset-col muted">{asset.type}</span>
      <span className="asset-col muted num">{formatBytes(asset.size)}</span>
      <span className="asset-col muted">{formatRelative(asset.createdAt)}</span>
    </a>
  );
}
