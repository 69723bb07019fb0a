// Ctrl/Cmd+K: go to any screen, switch workspace, start common actions. Built on react-aria's Autocomplete
// and Menu (a filtered, keyboard-driven list with a correct active descendant); cmdk was tried first, but its
// input kept pointing aria-activedescendant at items the filter had removed (a critical axe violation).
import { useQuery } from '@tanstack/react-query';
import { ArrowRight, Boxes, Search } from 'lucide-react';
import { type ReactNode, useMemo } from 'react';
import {
  Autocomplete,
  Collection,
  Dialog,
  Header,
  Input,
  Menu,
  MenuItem,
  MenuSection,
  Modal,
  ModalOverlay,
  SearchField,
  useFilter,
} from 'react-aria-components';
import { useNavigate } from 'react-router';
import { selectWorkspace } from '../api/workspace-store';
import { workspacesQuery } from '../features/workspaces/api/list-workspaces';
import { navGroups } from './nav';

type Command = { id: string; label: string; icon: ReactNode; run: () => void };

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
  const { contains } = useFilter({ sensitivity: 'base' });
  const sections = useMemo(() => {
    const go = navGroups
      .flatMap((g) => g.items)
      .filter((item) => !item.ownerOnly || isOwner)
      .map(({ path, label, icon: Icon }) => ({
        id: `go:${path}`,
        label: `Go to ${label}`,
        icon: <Icon size={16} />,
        run: () => navigate(path),
      }));
    const actions = [
      { label: 'Upload files', to: '/assets?upload=1' },
      { label: 'Create an API key', to: '/keys?create=1' },
      { label: 'Start dictation', to: '/dictation' },
      { label: 'Transcribe a recording', to: '/transcripts' },
    ].map((a) => ({
      id: `do:${a.to}`,
      label: a.label,
      icon: <ArrowRight size={16} />,
      run: () => navigate(a.to),
    }));
    const switches = workspaces.map((w) => ({
      id: `ws:${w.id}`,
      label: `Switch to ${w.name}`,
      icon: <Boxes size={16} />,
      run: () => selectWorkspace(w.personal ? null : w.id),
    }));
    return [
      { id: 'go', title: 'Go to', items: go },
      { id: 'do', title: 'Actions', items: actions },
      { id: 'ws', title: 'Workspaces', items: switches },
    ] satisfies { id: string; title: string; items: Command[] }[];
  }, [navigate, workspaces, isOwner]);
  const all = sections.flatMap((s) => s.items);

  return (
    <ModalOverlay
      className="modal-overlay palette-overlay"
      isOpen={open}
      onOpenChange={onOpenChange}
      isDismissable
    >
      <Modal className="modal modal-md palette-modal">
        <Dialog className="palette-dialog" aria-label="Command palette">
          <Autocomplete filter={contains}>
            <SearchField className="palette-search" aria-label="Search commands and screens" autoFocus>
              <Search size={16} aria-hidden className="faint" />
              <Input className="palette-input" placeholder="Type a command or a screen…" />
            </SearchField>
            <Menu
              className="palette-list"
              items={sections}
              renderEmptyState={() => <div className="palette-empty">No match.</div>}
              onAction={(key) => {
                const command = all.find((c) => c.id === key);
                onOpenChange(false);
                command?.run();
              }}
            >
              {(section) => (
                <MenuSection id={section.id} className="palette-group">
                  <Header className="palette-heading">{section.title}</Header>
                  <Collection items={section.items}>
                    {(item) => (
                      <MenuItem id={item.id} className="palette-item" textValue={item.label}>
                        {item.icon}
                        {item.label}
                      </MenuItem>
                    )}
                  </Collection>
                </MenuSection>
              )}
            </Menu>
          </Autocomplete>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
