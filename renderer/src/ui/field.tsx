import { Check, Search, X } from 'lucide-react';
import type { ReactNode } from 'react';
import {
  Checkbox as AriaCheckbox,
  SearchField as AriaSearchField,
  TextField as AriaTextField,
  type TextFieldProps as AriaTextFieldProps,
  type CheckboxProps,
  FieldError,
  Input,
  Label,
  type SearchFieldProps,
  Text,
  TextArea,
} from 'react-aria-components';
import { Button } from './button';

export type TextFieldProps = Omit<AriaTextFieldProps, 'className'> & {
  label?: string;
  description?: ReactNode;
  placeholder?: string;
  multiline?: boolean;
  mono?: boolean;
  errorMessage?: string;
};

export function TextField({
  label,
  description,
  placeholder,
  multiline,
  mono,
  errorMessage,
  ...props
}: TextFieldProps) {
  return (
    <AriaTextField {...props} className="field">
      {label && <Label className="field-label">{label}</Label>}
      {multiline ? (
        <TextArea className={`input textarea${mono ? ' mono' : ''}`} placeholder={placeholder} />
      ) : (
        <Input className={`input${mono ? ' mono' : ''}`} placeholder={placeholder} />
      )}
      {description && (
        <Text slot="description" className="field-description">
          {description}
        </Text>
      )}
      <FieldError className="field-error">{errorMessage}</FieldError>
    </AriaTextField>
  );
}

export function SearchField({
  placeholder = 'Search',
  ...props
}: Omit<SearchFieldProps, 'className'> & { placeholder?: string }) {
  return (
    <AriaSearchField {...props} className="search-field">
      <Search size={14} className="search-icon" aria-hidden />
      <Input className="input input-search" placeholder={placeholder} />
      <Button variant="ghost" size="sm" iconOnly icon={<X size={14} />} aria-label="Clear search" />
    </AriaSearchField>
  );
}

export function Checkbox({
  children,
  ...props
}: Omit<CheckboxProps, 'className' | 'children'> & { children?: ReactNode }) {
  return (
    <AriaCheckbox {...props} className="checkbox">
      {({ isSelected }) => (
        <>
          <span className="checkbox-box" aria-hidden>
            {isSelected && <Check size={12} strokeWidth={3} />}
          </span>
          <span className="checkbox-label">{children}</span>
        </>
      )}
    </AriaCheckbox>
  );
}
