// Settings › Watched folders: the folders whose recordings Folio imports and transcribes, each with its state and
// latest failures, and (where the desktop app runs the server) a form to add one and a button to stop each.
import { AlertTriangle, FolderOpen, Plus, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Form } from 'react-aria-components';
import { toast } from 'sonner';
import { desktop } from '../../../api/bridge';
import { Badge, type Tone } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { Checkbox, TextField } from '../../../ui/field';
import { Section } from '../../../ui/page';
import { Select } from '../../../ui/select';
import { ErrorState, LoadingRows } from '../../../ui/states';
import { useAddWatchedFolder } from '../api/add-watched-folder';
import { useOwnWorkspaces } from '../api/list-own-workspaces';
import { useWatchedFolders, type WatchedFolder } from '../api/list-watched-folders';
import { useRemoveWatchedFolder } from '../api/remove-watched-folder';

const STATES: Record<WatchedFolder['state'], { label: string; tone: Tone }> = {
  watching: { label: 'Watching', tone: 'success' },
  starting: { label: 'Scanning', tone: 'info' },
  waiting: { label: 'Waiting for sign-in', tone: 'warning' },
  unavailable: { label: 'Unavailable', tone: 'danger' },
};

export function WatchedFolders() {
  const folders = useWatchedFolders();
  const workspaces = useOwnWorkspaces();
  const names = new Map((workspaces.data ?? []).map((w) => [w.id, w.name]));
  return (
    <Section
      title="Watched folders"
      description="Recordings saved into these folders are imported and transcribed, each content once: a renamed or copied file is not transcribed again. Folio only reads them, and writes nothing there unless you ask for transcripts beside them."
    >
      {folders.isPending ? (
        <LoadingRows rows={2} label="Loading watched folders" />
      ) : folders.isError ? (
        <ErrorState error={folders.error} onRetry={() => folders.refetch()} />
      ) : (
        <>
          {folders.data.data.length === 0 ? (
            <p className="muted small">No folders yet.</p>
          ) : (
            <ul className="watched-list">
              {folders.data.data.map((folder) => (
                <FolderRow key={folder.id} folder={folder} workspace={names.get(folder.workspaceId ?? '')} />
              ))}
            </ul>
          )}
          {folders.data.editable ? (
            <AddFolderForm />
          ) : (
            <p className="muted small">
              This server was started from the command line: watch a folder by starting it with{' '}
              <code>--watch &lt;dir&gt;</code>.
            </p>
          )}
        </>
      )}
    </Section>
  );
}

function FolderRow({ folder, workspace }: { folder: WatchedFolder; workspace?: string }) {
  const remove = useRemoveWatchedFolder();
  const state = STATES[folder.state];
  const details = [
    workspace ? `Into ${workspace}` : null,
    `${folder.imported} imported`,
    folder.pending ? `${folder.pending} transcribing` : null,
    folder.beside.length ? `writes ${folder.beside.map((f) => `.${f}`).join(' and ')} beside` : null,
  ].filter(Boolean);
  return (
    <li className="watched-row">
      <span className="row-icon" aria-hidden>
        <FolderOpen size={16} />
      </span>
      <div className="watched-main">
        <span className="watched-path mono" title={folder.path}>
          {folder.path}
        </span>
        <span className="watched-meta">{details.join(' · ')}</span>
        {folder.problem && <span className="watched-problem">{folder.problem}</span>}
        {folder.failures.length > 0 && (
          <ul className="watched-failures" aria-label={`Failures in ${folder.path}`}>
            {folder.failures.map((f) => (
              <li key={`${f.name}-${f.at}`}>
                <AlertTriangle size={12} aria-hidden />
                <span className="mono">{f.name}</span>
                <span className="faint" title={f.error}>
                  {f.error}
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="watched-side">
        <Badge tone={state.tone} dot>
          {state.label}
        </Badge>
        {folder.origin === 'settings' ? (
          <Button
            variant="ghost"
            size="sm"
            iconOnly
            icon={<Trash2 size={14} />}
            aria-label={`Stop watching ${folder.path}`}
            isDisabled={remove.isPending}
            onPress={() =>
              remove.mutate(folder.id, { onSuccess: () => toast.success(`Stopped watching ${folder.path}`) })
            }
          />
        ) : (
          <span className="faint mono small">--watch</span>
        )}
      </div>
    </li>
  );
}

function AddFolderForm() {
  const workspaces = useOwnWorkspaces();
  const add = useAddWatchedFolder();
  const [path, setPath] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  const [txt, setTxt] = useState(false);
  const [srt, setSrt] = useState(false);
  const options = (workspaces.data ?? []).map((w) => ({ id: w.id, label: w.name }));
  const picker = desktop()?.chooseFolder; // the desktop app's; an older shell or a browser has none
  const workspaceId = chosen ?? workspaces.data?.find((w) => w.personal)?.id ?? options[0]?.id;
  const issues = Object.fromEntries(
    (add.error as { issues?: { path: string; message: string }[] } | null)?.issues?.map((i) => [
      i.path,
      i.message,
    ]) ?? [],
  );
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!workspaceId) return;
    const beside = [...(txt ? (['txt'] as const) : []), ...(srt ? (['srt'] as const) : [])];
    add.mutate(
      { path: path.trim(), beside, workspaceId },
      {
        onSuccess: (folder) => {
          setPath('');
          setTxt(false);
          setSrt(false);
          toast.success(`Watching ${folder.path}`);
        },
      },
    );
  };
  return (
    <Form className="watched-add" validationErrors={issues} onSubmit={handleSubmit}>
      <div className="watched-add-fields">
        <div className="watched-path-field">
          <TextField
            label="Folder"
            name="path"
            value={path}
            onChange={setPath}
            mono
            placeholder="/Users/you/Recordings"
            isRequired
          />
          {picker && (
            <Button
              icon={<FolderOpen size={14} />}
              onPress={() => void picker().then((p) => p && setPath(p))}
            >
              Choose…
            </Button>
          )}
        </div>
        {workspaceId && (
          <Select label="Into workspace" options={options} value={workspaceId} onChange={setChosen} />
        )}
      </div>
      <div className="row-wrap watched-add-actions">
        <Checkbox isSelected={txt} onChange={setTxt}>
          Write .txt beside each recording
        </Checkbox>
        <Checkbox isSelected={srt} onChange={setSrt}>
          Write .srt beside each recording
        </Checkbox>
        <Button type="submit" size="sm" icon={<Plus size={14} />} isDisabled={add.isPending || !path.trim()}>
          Watch folder
        </Button>
      </div>
      {add.isError && !Object.keys(issues).length && (
        <span className="danger small">{add.error.message}</span>
      )}
    </Form>
  );
}
