import type { SyncSettings } from '@server/domains/sync/desktop/screen-schema';
import { AlertTriangle } from 'lucide-react';
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { toast } from 'sonner';
import { type ApiIssue, isApiError } from '../../../api/client';
import { Button } from '../../../ui/button';
import { TextField } from '../../../ui/field';
import { useSaveSyncSettings } from '../api/save-sync-settings';

/**
 * The hosted Folio's address and a key from it. Saving tries them against the hosted Folio first, so a typo or a
 * refused key is reported here and nothing is kept. The key is write-only: it is never shown back.
 */
export function ConnectForm({ settings, onDone }: { settings: SyncSettings; onDone?: () => void }) {
  const [remoteUrl, setRemoteUrl] = useState(settings.remoteUrl ?? '');
  const [key, setKey] = useState('');
  const save = useSaveSyncSettings();
  const hasKey = Boolean(settings.keyPrefix);
  const issues: ApiIssue[] = isApiError(save.error) ? save.error.issues : [];
  const fieldErrors = Object.fromEntries(issues.map((i) => [i.path, i.message]));
  // Awaited rather than mutate's callbacks: a first connection swaps this form for the connection view.
  const handleSubmit = async () => {
    const body = { remoteUrl: remoteUrl.trim(), ...(key ? { key: key.trim() } : {}) };
    const saved = await save.mutateAsync({ ...body, enabled: settings.enabled || !hasKey }).catch(() => null);
    if (!saved) return; // the error shows below the fields
    setKey('');
    toast.success(`Connected to ${saved.remoteWorkspace?.name ?? saved.remoteUrl}`);
    onDone?.();
  };
  return (
    <Form
      className="stack sync-connect"
      aria-label="Connect to a hosted Folio"
      validationErrors={fieldErrors}
      onSubmit={(event) => {
        event.preventDefault();
        void handleSubmit();
      }}
    >
      <TextField
        label="Hosted Folio URL"
        name="remoteUrl"
        type="url"
        value={remoteUrl}
        onChange={setRemoteUrl}
        isRequired
        mono
        placeholder="https://folio.example.com"
        description="The address you open the hosted Folio at."
      />
      <TextField
        label="API key"
        name="key"
        type="password"
        value={key}
        onChange={setKey}
        isRequired={!hasKey}
        mono
        autoComplete="off"
        placeholder={hasKey ? `${settings.keyPrefix}… (kept)` : 'fk_…'}
        description={
          hasKey
            ? 'Leave empty to keep the saved key. It is never shown again once saved.'
            : 'Create one on the hosted Folio under API keys, with every service you want synced. It is never shown again once saved.'
        }
      />
      {save.isError && issues.length === 0 && (
        <div className="callout danger" role="alert">
          <AlertTriangle size={16} />
          <span>
            <strong>Could not connect.</strong> {save.error.message}
          </span>
        </div>
      )}
      <div className="row">
        <Button type="submit" variant="primary" isDisabled={save.isPending || !remoteUrl.trim()}>
          {save.isPending ? 'Checking…' : 'Test and connect'}
        </Button>
        {onDone && (
          <Button variant="ghost" onPress={onDone}>
            Cancel
          </Button>
        )}
      </div>
    </Form>
  );
}
