// Always visible in the sidebar: which workspace every screen acts on, and a way to another one.

import { Boxes, Check, ChevronsUpDown, Plus, Settings2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import {
  Button as AriaButton,
  Header,
  Menu,
  MenuItem,
  MenuSection,
  MenuTrigger,
  Popover,
  Separator,
} from 'react-aria-components';
import { useNavigate } from 'react-router';
import { selectWorkspace, useWorkspaceId } from '../../../api/workspace-store';
import { Skeleton } from '../../../ui/states';
import { useWorkspaces } from '../api/list-workspaces';
import { CreateWorkspaceDialog } from './create-workspace-dialog';

export function WorkspaceSwitcher() {
  const { data: workspaces, isPending } = useWorkspaces();
  const selected = useWorkspaceId();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const personal = workspaces?.find((w) => w.personal);
  const current = workspaces?.find((w) => w.id === selected) ?? personal;

  useEffect(() => {
    // The chosen workspace was deleted elsewhere: fall back to the personal one.
    if (workspaces && selected && !workspaces.some((w) => w.id === selected)) selectWorkspace(null);
  }, [workspaces, selected]);

  const choose = (id: string) => {
    selectWorkspace(id === personal?.id ? null : id);
    const section = window.location.pathname.split('/')[1];
    navigate(section ? `/${section}` : '/');
  };

  return (
    <>
      <MenuTrigger>
        <AriaButton className="ws-switcher">
          <span className="ws-avatar" aria-hidden>
            <Boxes size={12} />
          </span>
          <span className="visually-hidden">Workspace: </span>
          <span className="ws-name truncate">{isPending ? <Skeleton width={96} /> : current?.name}</span>
          <ChevronsUpDown size={14} className="faint" aria-hidden />
        </AriaButton>
        <Popover className="popover ws-popover" placement="bottom start">
          <Menu
            className="menu"
            aria-label="Workspaces"
            onAction={(key) => {
              if (key === 'create') setCreating(true);
              else if (key === 'manage') navigate('/workspaces');
              else choose(String(key));
            }}
          >
            <MenuSection>
              <Header className="menu-header">Workspaces</Header>
              {(workspaces ?? []).map((w) => (
                <MenuItem key={w.id} id={w.id} className="menu-item" textValue={w.name}>
                  <span className="ws-avatar small" aria-hidden>
                    {w.name.slice(0, 1).toUpperCase()}
                  </span>
                  <span className="truncate spacer">{w.name}</span>
                  {w.id === current?.id && <Check size={14} aria-label="current" />}
                </MenuItem>
              ))}
            </MenuSection>
            <Separator className="menu-separator" />
            <MenuItem id="create" className="menu-item" textValue="New workspace">
              <Plus size={14} /> New workspace…
            </MenuItem>
            <MenuItem id="manage" className="menu-item" textValue="Manage workspaces">
              <Settings2 size={14} /> Manage workspaces
            </MenuItem>
          </Menu>
        </Popover>
      </MenuTrigger>
      <CreateWorkspaceDialog isOpen={creating} onOpenChange={setCreating} onCreated={(id) => choose(id)} />
    </>
  );
}
