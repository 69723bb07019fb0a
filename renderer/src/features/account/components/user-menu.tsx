import { LogOut, UserRound } from 'lucide-react';
import { Button as AriaButton, Menu, MenuItem, MenuTrigger, Popover, Separator } from 'react-aria-components';
import { useNavigate } from 'react-router';
import type { Profile } from '../../../api/types';
import { useSignOut } from '../api/sign-out';

export function UserMenu({ profile }: { profile: Profile }) {
  const navigate = useNavigate();
  const signOut = useSignOut();
  return (
    <MenuTrigger>
      <AriaButton className="user-button">
        <span className="visually-hidden">Account: </span>
        <span className="user-avatar" aria-hidden>
          {(profile.name || profile.email).slice(0, 1).toUpperCase()}
        </span>
        <span className="user-text">
          <span className="truncate user-name">{profile.name || profile.email}</span>
          {profile.name && <span className="truncate user-email">{profile.email}</span>}
        </span>
      </AriaButton>
      <Popover className="popover" placement="top start">
        <Menu
          className="menu"
          aria-label="Account"
          onAction={(key) => (key === 'profile' ? navigate('/profile') : signOut.mutate())}
        >
          <MenuItem id="profile" className="menu-item">
            <UserRound size={14} /> Profile
          </MenuItem>
          <Separator className="menu-separator" />
          <MenuItem id="sign-out" className="menu-item">
            <LogOut size={14} /> Sign out
          </MenuItem>
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
