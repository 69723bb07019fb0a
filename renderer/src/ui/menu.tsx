import { MoreHorizontal } from 'lucide-react';
import type { ReactNode } from 'react';
import { Menu, MenuItem, MenuTrigger, Popover, Separator } from 'react-aria-components';
import { Button } from './button';

export type MenuAction =
  | {
      id: string;
      label: string;
      icon?: ReactNode;
      danger?: boolean;
      onAction: () => void;
      isDisabled?: boolean;
    }
  | 'separator';

/** A "more" menu: arrow keys, typeahead and Escape from react-aria. */
export function ActionMenu({
  label,
  actions,
  trigger,
}: {
  label: string;
  actions: MenuAction[];
  trigger?: ReactNode;
}) {
  const disabledKeys = actions.flatMap((a) => (a !== 'separator' && a.isDisabled ? [a.id] : []));
  return (
    <MenuTrigger>
      {trigger ?? (
        <Button variant="ghost" size="sm" iconOnly icon={<MoreHorizontal size={16} />} aria-label={label} />
      )}
      <Popover className="popover" placement="bottom end">
        <Menu
          className="menu"
          aria-label={label}
          disabledKeys={disabledKeys}
          onAction={(key) => {
            const action = actions.find((a) => a !== 'separator' && a.id === key);
            if (action && action !== 'separator') action.onAction();
          }}
        >
          {actions.map((action, i) =>
            action === 'separator' ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: separators have no identity
              <Separator key={`sep-${i}`} className="menu-separator" />
            ) : (
              <MenuItem
                key={action.id}
                id={action.id}
                className={`menu-item${action.danger ? ' danger' : ''}`}
                textValue={action.label}
              >
                {action.icon}
                <span>{action.label}</span>
              </MenuItem>
            ),
          )}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
