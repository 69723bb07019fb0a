import { Check, Download, ShieldAlert } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Form, Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { toast } from 'sonner';
import { useMe } from '../../api/me';
import type { CreatedApiKey } from '../../api/types';
import { Button, ButtonLink } from '../../ui/button';
import { CodeBlock } from '../../ui/copy';
import { TextField } from '../../ui/field';
import { formatBytes } from '../../ui/format';
import { Page } from '../../ui/page';
import { ProgressBar } from '../../ui/progress';
import { Skeleton } from '../../ui/states';
import { useCreateFirstKey } from './api/create-first-key';
import { useKeyCount, useModelStatus } from './api/get-setup';
import { useInstallModel } from './api/install-model';
import { snippets } from './components/snippets';
import './getting-started.css';

export default function GettingStartedScreen() {
  const me = useMe();
  const name = me.data?.isApproved ? me.data.profile.name : '';
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  return (
    <Page
      title={name ? `Welcome, ${name}` : 'Welcome to Folio'}
      description="Your files, recordings and published pages, on this computer, with an API your agents can use. Three steps to get going."
    >
      <ol className="steps">
        <ModelStep />
        <KeyStep created={created} onCreated={setCreated} />
        <Step
          n={3}
          title="Connect an agent"
          done={false}
          description="Paste one of these where your agent or script runs."
        >
          <Snippets secret={created?.secret} />
        </Step>
      </ol>
    </Page>
  );
}

function Step({
  n,
  title,
  done,
  description,
  children,
}: {
  n: number;
  title: string;
  done: boolean;
  description: ReactNode;
  children: ReactNode;
}) {
  return (
    <li className={`step card${done ? ' done' : ''}`}>
      <span className="step-number" aria-hidden>
        {done ? <Check size={14} strokeWidth={3} /> : n}
      </span>
      <div className="step-body">
        <h2 className="step-title">
          {title}
          {done && <span className="visually-hidden"> (done)</span>}
        </h2>
        <p className="step-description">{description}</p>
        {children}
      </div>
    </li>
  );
}

function ModelStep() {
  const status = useModelStatus();
  const install = useInstallModel();
  const [path, setPath] = useState('');
  const active = status.data?.active;
  const tiny = status.data?.catalog.find((m) => m.name === 'tiny.en') ?? status.data?.catalog[0];
  const download = status.data?.downloads.find((d) => d.name === tiny?.name);
  const installedUnused = status.data?.installed.find((m) => m.usable);
  return (
    <Step
      n={1}
      title="Install a speech model"
      done={Boolean(active)}
      description={
        active ? (
          <>
            <strong>{active.file}</strong> transcribes your recordings, on this machine.
          </>
        ) : (
          'Whisper runs locally: pick a model once and every transcript uses it.'
        )
      }
    >
      {status.isPending ? (
        <Skeleton height={32} />
      ) : active ? (
        <ButtonLink size="sm" href="/models">
          Manage models
        </ButtonLink>
      ) : (
        <div className="stack">
          {installedUnused ? (
            <div className="row">
              <Button variant="primary" onPress={() => install.activate.mutate(installedUnused.file)}>
                Use {installedUnused.file}
              </Button>
            </div>
          ) : download?.status === 'downloading' ? (
            <ProgressBar label={`Downloading ${tiny?.name}`} value={download.percent} showValue />
          ) : (
            tiny && (
              <div className="row-wrap">
                <Button
                  variant="primary"
                  icon={<Download size={16} />}
                  onPress={() =>
                    install.download.mutate(tiny.name, { onError: (e) => toast.error(e.message) })
                  }
                >
                  Download {tiny.name} ({formatBytes(tiny.bytes)})
                </Button>
                {download?.status === 'failed' && (
                  <span className="danger small">
                    Download failed: {download.error}. Import a file instead.
                  </span>
                )}
              </div>
            )
          )}
          <Form
            className="row form-row"
            onSubmit={(event) => {
              event.preventDefault();
              install.importPath.mutate(path, {
                onSuccess: () => toast.success('Model installed and active'),
              });
            }}
            validationErrors={
              install.importPath.error ? { path: install.importPath.error.message } : undefined
            }
          >
            <TextField
              aria-label="Path of a ggml model file"
              name="path"
              value={path}
              onChange={setPath}
              placeholder="or import a file: /path/to/ggml-base.en.bin"
              mono
            />
            <Button type="submit" isDisabled={!path.trim() || install.importPath.isPending}>
              Import
            </Button>
          </Form>
        </div>
      )}
    </Step>
  );
}

function KeyStep({
  created,
  onCreated,
}: {
  created: CreatedApiKey | null;
  onCreated: (key: CreatedApiKey) => void;
}) {
  const count = useKeyCount();
  const create = useCreateFirstKey();
  const done = Boolean(created) || (count.data ?? 0) > 0;
  return (
    <Step
      n={2}
      title="Create an API key"
      done={done}
      description={
        created
          ? 'Copy the secret now: it is shown this once.'
          : done
            ? 'This workspace has keys. Create one per agent so you can revoke them separately.'
            : 'Agents authenticate with a key that only reaches this workspace and the services you allow.'
      }
    >
      {created ? (
        <div className="stack">
          <div className="callout warning">
            <ShieldAlert size={16} />
            <span>Keep it server-side, in an environment variable: never in a web page.</span>
          </div>
          <CodeBlock label="Secret" code={created.secret} language="secret" />
        </div>
      ) : (
        <div className="row">
          <Button
            variant={done ? 'secondary' : 'primary'}
            isDisabled={create.isPending}
            onPress={() =>
              create.mutate(undefined, { onSuccess: onCreated, onError: (e) => toast.error(e.message) })
            }
          >
            Create a key for my agent
          </Button>
          <ButtonLink variant="ghost" href="/keys">
            Choose services…
          </ButtonLink>
        </div>
      )}
    </Step>
  );
}

function Snippets({ secret }: { secret?: string }) {
  const list = snippets(window.location.origin, secret);
  return (
    <Tabs className="snippet-tabs">
      <TabList aria-label="Ways to connect" className="tab-list">
        {list.map((s) => (
          <Tab key={s.id} id={s.id} className="tab">
            {s.label}
          </Tab>
        ))}
      </TabList>
      {list.map((s) => (
        <TabPanel key={s.id} id={s.id} className="tab-panel">
          <CodeBlock label={s.label} code={s.code} language={s.language} />
        </TabPanel>
      ))}
    </Tabs>
  );
}
