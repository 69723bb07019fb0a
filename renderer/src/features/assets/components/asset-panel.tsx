import { Download, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import type { Asset } from '../../../api/types';
import { Button, ButtonLink } from '../../../ui/button';
import { UrlRow } from '../../../ui/copy';
import { ConfirmDialog } from '../../../ui/dialog';
import { TextField } from '../../../ui/field';
import { formatBytes, formatDateTime, formatDuration } from '../../../ui/format';
import { Properties, SidePanel } from '../../../ui/side-panel';
import { ErrorState, Skeleton } from '../../../ui/states';
import { TagEditor } from '../../../ui/tag-editor';
import { useDeleteAsset } from '../api/delete-asset';
import { useAsset } from '../api/get-asset';
import { useUpdateAsset } from '../api/update-asset';
import { AssetIcon } from './asset-icon';

export function AssetPanel({ id, listed, onClose }: { id: string; listed?: Asset; onClose: () => void }) {
  const asset = useAsset(id, listed);
  return (
    <SidePanel title={asset.data?.displayName ?? 'Asset'} label="Asset details" onClose={onClose}>
      {asset.isPending ? (
        <Skeleton height={200} />
      ) : asset.isError ? (
        <ErrorState error={asset.error} title="This asset could not be loaded" />
      ) : (
        <AssetDetail key={asset.data.id} asset={asset.data} onDeleted={onClose} />
      )}
    </SidePanel>
  );
}

function Preview({ asset }: { asset: Asset }) {
  if (asset.urls.img)
    return (
      <a className="preview-image" href={asset.urls.img} target="_blank" rel="noreferrer">
        {/* width and height hold the box at the image's shape while it loads, so the fields below do not move */}
        <img
          src={asset.urls.img.replace('/img/', '/img/medium/')}
          alt={asset.displayName}
          width={asset.width}
          height={asset.height}
        />
      </a>
    );
  if (asset.type === 'video' && asset.urls.audio)
    // biome-ignore lint/a11y/useMediaCaption: user uploads carry no caption track
    return <video className="preview-media" controls preload="metadata" src={asset.urls.audio} />;
  if (asset.urls.audio)
    return (
      // biome-ignore lint/a11y/useMediaCaption: user uploads carry no caption track
      <audio
        className="preview-audio"
        controls
        preload="metadata"
        src={asset.urls.audio}
        aria-label={`Play ${asset.displayName}`}
      />
    );
  return (
    <div className="preview-none">
      <AssetIcon type={asset.type} size={32} />
      <span className="muted small">
        {asset.type === 'svg' ? 'SVG files are only served as downloads' : 'No preview for this type'}
      </span>
    </div>
  );
}

function AssetDetail({ asset, onDeleted }: { asset: Asset; onDeleted: () => void }) {
  const update = useUpdateAsset();
  const remove = useDeleteAsset();
  const [name, setName] = useState(asset.displayName);
  const [confirming, setConfirming] = useState(false);
  useEffect(() => setName(asset.displayName), [asset.displayName]);
  const saveName = () => {
    if (name.trim() && name !== asset.displayName)
      update.mutate({ id: asset.id, displayName: name }, { onSuccess: () => toast.success('Name saved') });
  };
  return (
    <>
      <Preview asset={asset} />
      <div className="row">
        <ButtonLink href={asset.urls.file} download={asset.filename} icon={<Download size={14} />} size="sm">
          Download
        </ButtonLink>
        <span className="spacer" />
        <Button size="sm" variant="ghost" icon={<Trash2 size={14} />} onPress={() => setConfirming(true)}>
          Delete
        </Button>
      </div>
      <TextField
        label="Name"
        value={name}
        onChange={setName}
        onBlur={saveName}
        onKeyDown={(event) => event.key === 'Enter' && saveName()}
        isInvalid={update.isError}
        errorMessage={update.error?.message}
      />
      <TagEditor tags={asset.tags} onChange={(tags) => update.mutate({ id: asset.id, tags })} />
      <Properties
        items={[
          ['Type', `${asset.type} · ${asset.contentType}`],
          ['Size', formatBytes(asset.size)],
          ...(asset.width ? [['Dimensions', `${asset.width} × ${asset.height}`] as [string, string]] : []),
          ...(asset.duration !== undefined
            ? [['Duration', formatDuration(asset.duration)] as [string, string]]
            : []),
          ['File name', asset.filename],
          ['Added', formatDateTime(asset.createdAt)],
          [
            'SHA-256',
            <code key="sha" title={asset.sha256}>
              {asset.sha256.slice(0, 16)}…
            </code>,
          ],
        ]}
      />
      <div className="stack url-list">
        <h3 className="subheading">Public URLs</h3>
        <p className="muted xs">Anyone with these links can fetch the file. Embed them anywhere.</p>
        <UrlRow label="File" url={asset.urls.file} />
        {asset.urls.img && <UrlRow label="Image" url={asset.urls.img} />}
        {asset.urls.thumb && <UrlRow label="Thumb" url={asset.urls.thumb} />}
        {asset.urls.audio && <UrlRow label="Stream" url={asset.urls.audio} />}
      </div>
      <ConfirmDialog
        title={`Delete “${asset.displayName}”?`}
        isOpen={confirming}
        onOpenChange={setConfirming}
        confirmLabel="Delete asset"
        isPending={remove.isPending}
        onConfirm={() =>
          remove.mutate(asset.id, {
            onSuccess: () => {
              toast.success('Asset deleted');
              setConfirming(false);
              onDeleted();
            },
            onError: (e) => toast.error(e.message),
          })
        }
      >
        <p>The file and its public URLs stop working. This cannot be undone.</p>
      </ConfirmDialog>
    </>
  );
}
