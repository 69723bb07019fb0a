// Ctrl/Cmd+K: go to any screen, switch workspace, start common actions.
import { useQuery } from '@tanstack/react-query';
import { Command } from 'cmdk';
import { Dialog, Modal, ModalOverlay } from 'react-aria-components';
import { useNavigate } from 'react-router';
import { selectWorkspace } from '../api/workspace-store';
import { workspacesQuery } from '../features/workspaces/api/list-workspaces';
import { navGroups } from './nav';

export default function CommandPalette({
  open,
  onOpenChange,
  isOwner,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  isOwner: boolean;
}) {
  const navigate = useNavigate();
  const { data: workspaces = [] } = useQuery(workspacesQuery());
  const run = (action: () => void) => {
    onOpenChange(false);
    action();
  };
  const actions = [
    { label: 'Upload files', to: '/assets?upload=1' },
    { label: 'Create an API key', to: '/keys?create=1' },
    { label: 'Start dictation', to: '/dictation' },
    { label: 'Transcribe a recording', to: '/transcripts?upload=1' },
  ];
  return (
    <ModalOverlay
      className="modal-overlay palette-overlay"
      isOpen={open}
      onOpenChange={onOpenChange}
      isDismissable
    >
      <Modal className="modal modal-md palette-modal">
        <Dialog className="palette-dialog" aria-label="Command palette">
          <Command label="Command palette" loop>
            <Command.Input className="palette-input" placeholder="Type a command or a screen…" autoFocus />
            <Command.List className="palette-list">
              <Command.Empty className="palette-empty">No match.</Command.Empty>
              <Command.Group heading="Go to" className="palette-group">
                {navGroups
                  .flatMap((g) => g.items)
                  .filter((item) => !item.ownerOnly || isOwner)
                  .map(({ path, label, icon: Icon }) => (
                    <Command.Item
                      key={path}
                      value={`go ${label}`}
                      className="palette-item"
                      onSelect={() => run(() => navigate(path))}
                    >
                      <Icon size={16} /> {label}
                    </Command.Item>
                  ))}
              </Command.Group>
              <Command.Group heading="Actions" className="palette-group">
                {actions.map((a) => (
                  <Command.Item
                    key={a.to}
                    value={a.label}
                    className="palette-item"
                    onSelect={() => run(() => navigate(a.to))}
                  >
                    {a.label}
                  </Command.Item>
                ))}
              </Command.Group>
              <Command.Group heading="Switch workspace" className="palette-group">
                {workspaces.map((w) => (
                  <Command.Item
                    key={w.id}
                    value={`workspace ${w.name}`}
                    className="palette-item"
                    onSelect={() => run(() => selectWorkspace(w.personal ? null : w.id))}
                  >
                    {w.name}
                  </Command.Item>
                ))}
              </Command.Group>
            </Command.List>
          </Command>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
