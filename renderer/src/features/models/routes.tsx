import { CheckCircle2, Cpu, Download, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { ModelsWithDevice } from '../../api/transcription-device';
import type { ModelOverview } from '../../api/types';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/dialog';
import { formatBytes } from '../../ui/format';
import { Page, Section } from '../../ui/page';
import { ProgressBar } from '../../ui/progress';
import { EmptyState, ErrorState, LoadingRows } from '../../ui/states';
import { useDeleteModel } from './api/delete-model';
import { useDownloadModel } from './api/download-model';
import { useModels } from './api/get-models';
import { useSetActiveModel } from './api/set-active-model';
import { DeviceStatus } from './components/device-status';
import { ImportModelForm } from './components/import-model-form';
import './models.css';

export default function ModelsScreen() {
  const models = useModels();
  return (
    <Page
      title="Models"
      description="Whisper models run on this computer. Smaller ones are faster; larger ones are more accurate. Models are shared by every workspace."
    >
      {models.isPending ? (
        <LoadingRows label="Loading models" />
      ) : models.isError ? (
        <ErrorState error={models.error} onRetry={() => models.refetch()} />
      ) : (
        <div className="stack-lg models">
          <div className="stack">
            <ActiveModel overview={models.data} />
            <DeviceStatus overview={models.data as ModelsWithDevice} />
          </div>
          <Installed overview={models.data} />
          <Catalog overview={models.data} />
          <Section
            title="Import a model file"
            description="A ggml Whisper model (.bin) on this machine is copied into Folio’s data folder."
          >
            <ImportModelForm />
          </Section>
        </div>
      )}
    </Page>
  );
}

function ActiveModel({ overview }: { overview: ModelOverview }) {
  if (!overview.active)
    return (
      <div className="callout warning" role="status">
        <Cpu size={16} />
        <span>
          <strong>No model is active.</strong> Transcripts fail until one is installed: download one below, or
          import a file.
        </span>
      </div>
    );
  return (
    <div className="callout success" role="status">
      <CheckCircle2 size={16} />
      <span>
        <strong>{overview.active.file}</strong> transcribes everything
        {overview.active.source === 'whisper-model flag' ? ' (chosen with --whisper-model at start)' : ''}.
      </span>
    </div>
  );
}

function Installed({ overview }: { overview: ModelOverview }) {
  const activate = useSetActiveModel();
  const remove = useDeleteModel();
  const [deleting, setDeleting] = useState<string | null>(null);
  const handleDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting, {
      onSuccess: () => {
        toast.success(`${deleting} deleted`);
        setDeleting(null);
      },
      onError: (e) => toast.error(e.message),
    });
  };
  return (
    <Section title="Installed">
      {overview.installed.length === 0 ? (
        <EmptyState icon={<Cpu size={20} />} title="No models installed">
          Download one from the catalog or import a file.
        </EmptyState>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>File</th>
              <th className="num">Size</th>
              <th>State</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {overview.installed.map((m) => {
              const isActive = overview.active?.file === m.file;
              return (
                <tr key={m.file}>
                  <td>
                    <span className="mono">{m.file}</span>
                  </td>
                  <td className="num muted">{formatBytes(m.bytes)}</td>
                  <td>
                    {m.usable ? (
                      isActive ? (
                        <Badge tone="success" dot>
                          Active
                        </Badge>
                      ) : (
                        <Badge>Ready</Badge>
                      )
                    ) : (
                      <Badge tone="danger">{m.problem}</Badge>
                    )}
                  </td>
                  <td className="num">
                    <div className="model-actions">
                      {m.usable && !isActive && (
                        <Button
                          size="sm"
                          onPress={() =>
                            activate.mutate(m.file, {
                              onSuccess: () => toast.success(`${m.file} is now active`),
                              onError: (e) => toast.error(e.message),
                            })
                          }
                        >
                          Use this model
                        </Button>
                      )}
                      {!isActive && (
                        <Button
                          size="sm"
                          variant="ghost"
                          iconOnly
                          icon={<Trash2 size={14} />}
                          aria-label={`Delete ${m.file}`}
                          onPress={() => setDeleting(m.file)}
                        />
                      )}
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <ConfirmDialog
        title="Delete model"
        isOpen={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        onConfirm={handleDelete}
        confirmLabel="Delete"
        isPending={remove.isPending}
      >
        <p>
          Delete <span className="mono">{deleting}</span> from this computer? Transcripts made with it stay;
          you can download or import it again.
        </p>
      </ConfirmDialog>
    </Section>
  );
}

function Catalog({ overview }: { overview: ModelOverview }) {
  const download = useDownloadModel();
  return (
    <Section title="Catalog" description="Standard whisper.cpp models, verified by checksum after download.">
      <table className="table">
        <thead>
          <tr>
            <th>Model</th>
            <th>Languages</th>
            <th className="num">Size</th>
            <th className="catalog-action" />
          </tr>
        </thead>
        <tbody>
          {overview.catalog.map((m) => {
            const progress = overview.downloads.find((d) => d.name === m.name);
            return (
              <tr key={m.name}>
                <td>
                  <span className="row-link">{m.name}</span>
                </td>
                <td className="muted">{m.multilingual ? 'Multilingual' : 'English'}</td>
                <td className="num muted">{formatBytes(m.bytes)}</td>
                <td className="catalog-action">
                  {m.installed ? (
                    <Badge tone="success">Installed</Badge>
                  ) : progress?.status === 'downloading' ? (
                    <ProgressBar label={`Downloading ${m.name}`} value={progress.percent} showValue />
                  ) : (
                    <div className="catalog-download">
                      {progress?.status === 'failed' && (
                        <span className="danger xs truncate" title={progress.error}>
                          Failed: {progress.error}
                        </span>
                      )}
                      <Button
                        size="sm"
                        icon={<Download size={14} />}
                        onPress={() => download.mutate(m.name, { onError: (e) => toast.error(e.message) })}
                        aria-label={`Download ${m.name}`}
                      >
                        {progress?.status === 'failed' ? 'Retry' : 'Download'}
                      </Button>
                    </div>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </Section>
  );
}
