import { ChevronDown } from 'lucide-react';
import {
  Select as AriaSelect,
  Button,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  SelectValue,
} from 'react-aria-components';

export type Option<K extends string> = { id: K; label: string };

/** A single choice from a short list (filters, settings). */
export function Select<K extends string>({
  label,
  options,
  value,
  onChange,
  hideLabel,
  width,
}: {
  label: string;
  options: Option<K>[];
  value: K;
  onChange: (value: K) => void;
  hideLabel?: boolean;
  width?: number;
}) {
  return (
    <AriaSelect
      className="select"
      selectedKey={value}
      onSelectionChange={(key) => onChange(key as K)}
      aria-label={hideLabel ? label : undefined}
    >
      {!hideLabel && <Label className="field-label">{label}</Label>}
      <Button className="select-button" style={width ? { width } : undefined}>
        <SelectValue className="select-value" />
        <ChevronDown size={14} aria-hidden />
      </Button>
      <Popover className="popover" placement="bottom start">
        <ListBox className="listbox" items={options}>
          {(option) => (
            <ListBoxItem className="listbox-item" id={option.id} textValue={option.label}>
              {option.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaSelect>
  );
}
