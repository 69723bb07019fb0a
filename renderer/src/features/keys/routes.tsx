import { KeyRound, Plus } from 'lucide-react';
import { useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import type { CreatedApiKey } from '../../api/types';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { formatRelative } from '../../ui/format';
import { Page } from '../../ui/page';
import { EmptyState, ErrorState, LoadingRows } from '../../ui/states';
import { useCreateKey } from './api/create-key';
import { useKeys } from './api/list-keys';
import { KeyForm } from './components/key-form';
import { KeyPanel } from './components/key-panel';
import { SecretDialog } from './components/secret-dialog';
import './keys.css';

export default function KeysScreen() {
  const keys = useKeys();
  const { id } = useParams();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const create = useCreateKey();
  const creating = search.get('create') === '1';
  const setCreating = (open: boolean) => setSearch(open ? { create: '1' } : {}, { replace: true });
  const selected = keys.data?.find((k) => k.id === id);
  const newKey = (
    <Button variant="primary" icon={<Plus size={16} />} onPress={() => setCreating(true)}>
      New key
    </Button>
  );

  return (
    <Page
      title="API keys"
      description="Keys let agents and scripts call this workspace’s API. Each key is limited to the services you choose."
      actions={keys.data?.length ? newKey : undefined}
      panel={selected && <KeyPanel apiKey={selected} onClose={() => navigate('/keys')} />}
    >
      {keys.isPending ? (
        <LoadingRows label="Loading keys" />
      ) : keys.isError ? (
        <ErrorState error={keys.error} onRetry={() => keys.refetch()} />
      ) : keys.data.length === 0 ? (
        <EmptyState icon={<KeyRound size={20} />} title="No API keys yet" action={newKey}>
          Create a key for each agent or script. Its secret is shown once; afterwards only its prefix is
          listed.
        </EmptyState>
      ) : (
        <table className="table keys-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Key</th>
              <th>Services</th>
              <th>Last used</th>
            </tr>
          </thead>
          <tbody>
            {keys.data.map((key) => (
              <tr
                key={key.id}
                className={key.id === id ? 'selected' : undefined}
                onClick={() => navigate(`/keys/${key.id}`)}
              >
                <td>
                  <a
                    className="row-link"
                    href={`/keys/${key.id}`}
                    onClick={(event) => {
                      event.preventDefault();
                      navigate(`/keys/${key.id}`);
                    }}
                  >
                    {key.name}
                  </a>
                </td>
                <td>
                  <code className="muted">{key.prefix}…</code>
                </td>
                <td>
                  <div className="row-wrap">
                    {key.services.length ? (
                      key.services.map((s) => (
                        <span className="chip" key={s}>
                          {s}
                        </span>
                      ))
                    ) : (
                      <span className="faint">none</span>
                    )}
                  </div>
                </td>
                <td className="muted nowrap">{formatRelative(key.lastUsedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Dialog title="New API key" isOpen={creating} onOpenChange={(open) => !open && setCreating(false)}>
        <KeyForm
          submitLabel="Create key"
          isPending={create.isPending}
          error={create.error}
          onCancel={() => setCreating(false)}
          onSubmit={(input) =>
            create.mutate(input, {
              onSuccess: (key) => {
                setCreating(false);
                create.reset();
                setCreated(key);
              },
            })
          }
        />
      </Dialog>
      <SecretDialog created={created} onClose={() => setCreated(null)} />
    </Page>
  );
}
