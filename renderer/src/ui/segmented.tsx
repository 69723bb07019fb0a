import type { ReactNode } from 'react';
import { ToggleButton, ToggleButtonGroup } from 'react-aria-components';

/** Two or three exclusive views (grid/list, light filters). */
export function Segmented<K extends string>({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: K;
  onChange: (value: K) => void;
  options: { id: K; label: string; icon?: ReactNode; iconOnly?: boolean }[];
}) {
  return (
    <ToggleButtonGroup
      className="segmented"
      aria-label={label}
      selectionMode="single"
      disallowEmptySelection
      selectedKeys={[value]}
      onSelectionChange={(keys) => {
        const [next] = [...keys];
        if (next) onChange(next as K);
      }}
    >
      {options.map((o) => (
        <ToggleButton
          key={o.id}
          id={o.id}
          className="segmented-item"
          aria-label={o.iconOnly ? o.label : undefined}
        >
          {o.icon}
          {!o.iconOnly && o.label}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
