import { Search } from 'lucide-react';
import { NavLink } from 'react-router';
import type { Profile } from '../api/types';
import { UserMenu } from '../features/account/components/user-menu';
import { WorkspaceSwitcher } from '../features/workspaces/components/workspace-switcher';
import { brandIcon as Brand, navGroups } from './nav';

export function Sidebar({ profile, onOpenPalette }: { profile: Profile; onOpenPalette: () => void }) {
  const mac = /Mac|iPhone|iPad/.test(navigator.platform);
  return (
    <nav className="sidebar" aria-label="Folio">
      <div className="sidebar-brand">
        <span className="brand-mark" aria-hidden>
          <Brand size={14} />
        </span>
        <span className="brand-name">Folio</span>
      </div>
      <WorkspaceSwitcher />
      <button type="button" className="sidebar-search" onClick={onOpenPalette}>
        <Search size={14} aria-hidden />
        <span>Search…</span>
        <kbd>{mac ? '⌘' : 'Ctrl'} K</kbd>
      </button>
      <div className="sidebar-nav">
        {navGroups.map((group) => (
          <div className="nav-group" key={group.label}>
            <h2 className="nav-group-label">{group.label}</h2>
            <ul>
              {group.items
                .filter((item) => !item.ownerOnly || profile.isInstanceOwner)
                .map(({ path, label, icon: Icon }) => (
                  <li key={path}>
                    <NavLink to={path} end={path === '/'} className="nav-link">
                      <Icon size={16} />
                      <span>{label}</span>
                    </NavLink>
                  </li>
                ))}
            </ul>
          </div>
        ))}
      </div>
      <div className="sidebar-footer">
        <UserMenu profile={profile} />
      </div>
    </nav>
  );
}
