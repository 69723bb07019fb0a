import type { SyncSettings } from '@server/domains/sync/desktop/screen-schema';
import { Link2Off, PlugZap } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/dialog';
import { Properties } from '../../../ui/side-panel';
import { Switch } from '../../../ui/switch';
import { useDisconnectSync } from '../api/disconnect-sync';
import { useSaveSyncSettings } from '../api/save-sync-settings';
import { ConnectForm } from './connect-form';

const storageLabel = {
  safeStorage: 'Your system keychain',
  file: 'A file only your user can read',
} as const;

/** The hosted Folio this workspace syncs with: where, which key, the opt-in, test, change and disconnect. */
export function Connection({ settings }: { settings: SyncSettings }) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const save = useSaveSyncSettings();
  const disconnect = useDisconnectSync();
  if (editing) return <ConnectForm settings={settings} onDone={() => setEditing(false)} />;
  const handleTest = () =>
    save.mutate(
      { remoteUrl: settings.remoteUrl ?? '', enabled: settings.enabled },
      {
        onSuccess: (s) =>
          toast.success(`Connection works: ${s.remoteWorkspace?.name ?? s.remoteUrl} answers`),
        onError: (e) => toast.error(`Connection failed: ${e.message}`),
      },
    );
  const handleToggle = (enabled: boolean) =>
    save.mutate(
      { enabled },
      {
        onSuccess: () => toast.success(enabled ? 'Automatic sync is on' : 'Automatic sync is off'),
        onError: (e) => toast.error(e.message),
      },
    );
  // Awaited: disconnecting swaps this view for the connect form, which drops mutate's own callbacks.
  const handleDisconnect = async () => {
    try {
      await disconnect.mutateAsync();
      toast.success('Disconnected. The key was forgotten.');
    } catch (error) {
      toast.error((error as Error).message);
    }
  };
  return (
    <div className="stack">
      <Properties
        items={[
          [
            'Hosted Folio',
            <span key="u" className="mono">
              {settings.remoteUrl}
            </span>,
          ],
          ['Its workspace', settings.remoteWorkspace?.name || '—'],
          [
            'Key',
            <span key="k" className="mono">
              {settings.keyPrefix}…
            </span>,
          ],
          ['Key kept in', storageLabel[settings.keyStorage]],
        ]}
      />
      <Switch
        isSelected={settings.enabled}
        onChange={handleToggle}
        isDisabled={save.isPending}
        description={`Folio syncs this workspace every ${settings.intervalMinutes} minutes while it runs, and waits longer while the hosted Folio is unreachable. “Sync now” works either way.`}
      >
        Sync this workspace automatically
      </Switch>
      <div className="row">
        <Button size="sm" icon={<PlugZap size={14} />} onPress={handleTest} isDisabled={save.isPending}>
          Test connection
        </Button>
        <Button size="sm" variant="ghost" onPress={() => setEditing(true)}>
          Change URL or key
        </Button>
        <Button size="sm" variant="ghost" icon={<Link2Off size={14} />} onPress={() => setConfirming(true)}>
          Disconnect
        </Button>
      </div>
      <ConfirmDialog
        title="Disconnect sync"
        isOpen={confirming}
        onOpenChange={setConfirming}
        onConfirm={handleDisconnect}
        confirmLabel="Disconnect"
        isPending={disconnect.isPending}
      >
        <p>
          Stop syncing this workspace with <span className="mono">{settings.remoteUrl}</span> and forget its
          key? Everything already synced stays on both sides.
        </p>
      </ConfirmDialog>
    </div>
  );
}
