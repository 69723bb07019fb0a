import { Boxes, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { WorkspaceWithUsage } from '../../api/types';
import { selectWorkspace, useWorkspaceId } from '../../api/workspace-store';
import { Badge } from '../../ui/badge';
import { BarChart } from '../../ui/bar-chart';
import { Button } from '../../ui/button';
import { ConfirmDialog, Dialog } from '../../ui/dialog';
import { TextField } from '../../ui/field';
import { formatBytes, formatDateTime, pluralize } from '../../ui/format';
import { ActionMenu } from '../../ui/menu';
import { Page } from '../../ui/page';
import { EmptyState, ErrorState, LoadingRows } from '../../ui/states';
import { useDeleteWorkspace } from './api/delete-workspace';
import { useWorkspaces } from './api/list-workspaces';
import { useRenameWorkspace } from './api/rename-workspace';
import { CreateWorkspaceDialog } from './components/create-workspace-dialog';
import './workspaces.css';

export default function WorkspacesScreen() {
  const workspaces = useWorkspaces();
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<WorkspaceWithUsage | null>(null);
  const [deleting, setDeleting] = useState<WorkspaceWithUsage | null>(null);
  return (
    <Page
      title="Workspaces"
      description="Each workspace has its own assets, transcripts, publications and keys. Keys only ever see their own workspace."
      actions={
        <Button variant="primary" icon={<Plus size={16} />} onPress={() => setCreating(true)}>
          New workspace
        </Button>
      }
    >
      {workspaces.isPending ? (
        <LoadingRows label="Loading workspaces" />
      ) : workspaces.isError ? (
        <ErrorState error={workspaces.error} onRetry={() => workspaces.refetch()} />
      ) : workspaces.data.length === 0 ? (
        <EmptyState icon={<Boxes size={20} />} title="No workspaces" />
      ) : (
        <div className="workspace-list">
          {workspaces.data.map((w) => (
            <WorkspaceCard
              key={w.id}
              workspace={w}
              onRename={() => setRenaming(w)}
              onDelete={() => setDeleting(w)}
            />
          ))}
        </div>
      )}
      <CreateWorkspaceDialog isOpen={creating} onOpenChange={setCreating} />
      {renaming && <RenameDialog workspace={renaming} onClose={() => setRenaming(null)} />}
      {deleting && <DeleteDialog workspace={deleting} onClose={() => setDeleting(null)} />}
    </Page>
  );
}

function WorkspaceCard({
  workspace,
  onRename,
  onDelete,
}: {
  workspace: WorkspaceWithUsage;
  onRename: () => void;
  onDelete: () => void;
}) {
  const selected = useWorkspaceId();
  const isCurrent = selected === workspace.id || (!selected && workspace.personal);
  const usage = Object.entries(workspace.usage).map(([name, u]) => ({
    name,
    value: u.bytes,
    detail: pluralize(u.count, 'item'),
  }));
  const total = usage.reduce((sum, u) => sum + u.value, 0);
  return (
    <article className="card workspace-card" aria-label={workspace.name}>
      <header className="workspace-card-header">
        <span className="ws-avatar large" aria-hidden>
          {workspace.name.slice(0, 1).toUpperCase()}
        </span>
        <div className="cell-title">
          <h2 className="workspace-name">{workspace.name}</h2>
          <span className="cell-sub">Created {formatDateTime(workspace.createdAt)}</span>
        </div>
        <div className="row">
          {workspace.personal && <Badge>Personal</Badge>}
          {isCurrent ? (
            <Badge tone="accent" dot>
              Current
            </Badge>
          ) : (
            <Button size="sm" onPress={() => selectWorkspace(workspace.personal ? null : workspace.id)}>
              Switch to
            </Button>
          )}
          <ActionMenu
            label={`Actions for ${workspace.name}`}
            actions={[
              { id: 'rename', label: 'Rename…', icon: <Pencil size={14} />, onAction: onRename },
              {
                id: 'delete',
                label: 'Delete…',
                icon: <Trash2 size={14} />,
                danger: true,
                onAction: onDelete,
                isDisabled: workspace.personal,
              },
            ]}
          />
        </div>
      </header>
      <div className="workspace-usage">
        <div className="usage-total">
          <span className="usage-total-value">{formatBytes(total)}</span>
          <span className="muted small">stored</span>
        </div>
        <BarChart label={`Usage of ${workspace.name} by capability`} rows={usage} format={formatBytes} />
      </div>
    </article>
  );
}

function RenameDialog({ workspace, onClose }: { workspace: WorkspaceWithUsage; onClose: () => void }) {
  const [name, setName] = useState(workspace.name);
  const rename = useRenameWorkspace();
  return (
    <Dialog
      title="Rename workspace"
      isOpen
      onOpenChange={(open) => !open && onClose()}
      size="sm"
      footer={
        <>
          <Button variant="ghost" onPress={onClose}>
            Cancel
          </Button>
          <Button
            variant="primary"
            isDisabled={!name.trim() || rename.isPending}
            onPress={() =>
              rename.mutate(
                { id: workspace.id, name },
                {
                  onSuccess: () => {
                    toast.success('Workspace renamed');
                    onClose();
                  },
                },
              )
            }
          >
            Rename
          </Button>
        </>
      }
    >
      <TextField
        label="Name"
        value={name}
        onChange={setName}
        autoFocus
        maxLength={80}
        isInvalid={rename.isError}
        errorMessage={rename.error?.message}
      />
    </Dialog>
  );
}

function DeleteDialog({ workspace, onClose }: { workspace: WorkspaceWithUsage; onClose: () => void }) {
  const remove = useDeleteWorkspace();
  return (
    <ConfirmDialog
      title={`Delete “${workspace.name}”?`}
      isOpen
      onOpenChange={(open) => !open && onClose()}
      confirmLabel="Delete workspace"
      typeToConfirm={workspace.name}
      isPending={remove.isPending}
      onConfirm={() =>
        remove.mutate(workspace.id, {
          onSuccess: () => {
            toast.success(`Workspace “${workspace.name}” deleted`);
            onClose();
          },
          onError: (e) => toast.error(e.message),
        })
      }
    >
      <p>Every asset, transcript, publication and API key in it is deleted with it. This cannot be undone.</p>
    </ConfirmDialog>
  );
}
