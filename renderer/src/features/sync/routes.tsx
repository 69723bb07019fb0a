import { useQueryClient } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import { useEffect } from 'react';
import { toast } from 'sonner';
import { wsKey } from '../../api/workspace-store';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Page, Section } from '../../ui/page';
import { ErrorState, LoadingRows } from '../../ui/states';
import { useRunSync } from './api/run-sync';
import { useSyncSettings } from './api/sync-settings';
import { useSyncStatus } from './api/sync-status';
import { Conflicts } from './components/conflicts';
import { ConnectForm } from './components/connect-form';
import { Connection } from './components/connection';
import { RunPanel } from './components/run-panel';
import './sync.css';

export default function SyncScreen() {
  const settings = useSyncSettings();
  const status = useSyncStatus();
  const run = useRunSync();
  const client = useQueryClient();
  const finishedAt = status.data?.lastRun?.finishedAt;
  // A run that ends may have kept conflict copies: list them again.
  useEffect(() => {
    if (finishedAt) void client.invalidateQueries({ queryKey: wsKey('sync', 'conflicts') });
  }, [finishedAt, client]);
  const connected = Boolean(settings.data?.remoteUrl && settings.data.keyPrefix);
  const running = status.data?.state === 'running' || run.isPending;
  const handleRun = () => run.mutate({}, { onError: (e) => toast.error(e.message) });
  return (
    <Page
      title="Sync"
      description="Keep this workspace in step with a hosted Folio. When an item is edited in both places, the hosted edit wins and yours is kept here for you to decide."
      actions={
        connected && (
          <Button
            variant="primary"
            icon={<RefreshCw size={14} className={running ? 'spin' : undefined} />}
            onPress={handleRun}
            isDisabled={running}
          >
            {running ? 'Syncing…' : 'Sync now'}
          </Button>
        )
      }
    >
      {settings.isPending || status.isPending ? (
        <LoadingRows rows={4} label="Loading sync" />
      ) : settings.isError || status.isError ? (
        <ErrorState
          error={settings.error ?? status.error}
          onRetry={() => {
            void settings.refetch();
            void status.refetch();
          }}
        />
      ) : !connected ? (
        <div className="stack-lg narrow">
          <Section
            title="Connect to a hosted Folio"
            description="Folio checks the address and key with the hosted Folio before saving them."
          >
            <ConnectForm settings={settings.data} />
          </Section>
        </div>
      ) : (
        <div className="stack-lg sync">
          <div className="sync-columns">
            <Section title="Status">
              <RunPanel status={status.data} />
            </Section>
            <Section title="Connection">
              <Connection settings={settings.data} />
            </Section>
          </div>
          <Section
            title="Conflicts"
            actions={
              status.data.openConflicts > 0 && (
                <Badge tone="warning">{status.data.openConflicts} to resolve</Badge>
              )
            }
            description="Items edited here and on the hosted Folio between two syncs. Nothing was lost: pick which version stays."
          >
            <Conflicts />
          </Section>
        </div>
      )}
    </Page>
  );
}
