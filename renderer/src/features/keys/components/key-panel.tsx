import { useState } from 'react';
import { toast } from 'sonner';
import type { ApiKey } from '../../../api/types';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/dialog';
import { formatDateTime, formatRelative } from '../../../ui/format';
import { Properties, SidePanel } from '../../../ui/side-panel';
import { useRevokeKey } from '../api/revoke-key';
import { useUpdateKey } from '../api/update-key';
import { KeyForm } from './key-form';

/** A key's page: edit its name and services, see when it was last used, revoke it. */
export function KeyPanel({ apiKey, onClose }: { apiKey: ApiKey; onClose: () => void }) {
  const update = useUpdateKey();
  const revoke = useRevokeKey();
  const [confirming, setConfirming] = useState(false);
  return (
    <SidePanel title={apiKey.name} label={`Key ${apiKey.name}`} onClose={onClose}>
      <Properties
        items={[
          ['Prefix', <code key="p">{apiKey.prefix}…</code>],
          [
            'Last used',
            apiKey.lastUsedAt ? (
              <span key="used" title={formatDateTime(apiKey.lastUsedAt)}>
                {formatRelative(apiKey.lastUsedAt)}
              </span>
            ) : (
              <Badge key="used">never</Badge>
            ),
          ],
          ['Created', formatDateTime(apiKey.createdAt)],
          ['Updated', formatDateTime(apiKey.updatedAt)],
        ]}
      />
      <KeyForm
        key={apiKey.id + apiKey.updatedAt}
        initial={{ name: apiKey.name, services: apiKey.services }}
        submitLabel="Save changes"
        isPending={update.isPending}
        error={update.error}
        onCancel={onClose}
        onSubmit={(input) =>
          update.mutate(
            { id: apiKey.id, ...input },
            { onSuccess: () => toast.success('Key updated: it takes effect on its next call') },
          )
        }
      />
      <div className="danger-zone">
        <div>
          <div className="danger-title">Revoke this key</div>
          <p className="muted small">Its next request gets 401. Agents using it stop working.</p>
        </div>
        <Button variant="danger" onPress={() => setConfirming(true)}>
          Revoke
        </Button>
      </div>
      <ConfirmDialog
        title={`Revoke “${apiKey.name}”?`}
        isOpen={confirming}
        onOpenChange={setConfirming}
        confirmLabel="Revoke key"
        isPending={revoke.isPending}
        onConfirm={() =>
          revoke.mutate(apiKey.id, {
            onSuccess: () => {
              toast.success(`Key “${apiKey.name}” revoked`);
              setConfirming(false);
              onClose();
            },
            onError: (e) => toast.error(e.message),
          })
        }
      >
        <p>Anything using {apiKey.prefix}… is refused from now on. This cannot be undone.</p>
      </ConfirmDialog>
    </SidePanel>
  );
}
