import type { ReactNode } from 'react';
import { Label, Radio, RadioGroup, Text } from 'react-aria-components';

export type Choice<K extends string> = {
  id: K;
  label: string;
  help: ReactNode;
  icon?: ReactNode;
  isDisabled?: boolean;
};

/** A form's one-of-a-few choice where each option needs a line of explanation (a radio group drawn as cards). */
export function ChoiceCards<K extends string>({
  label,
  description,
  name,
  value,
  onChange,
  choices,
}: {
  label: string;
  description?: ReactNode;
  name: string;
  value: K;
  onChange: (value: K) => void;
  choices: Choice<K>[];
}) {
  return (
    <RadioGroup
      className="field"
      name={name}
      value={value}
      onChange={(next) => onChange(next as K)}
      orientation="horizontal"
    >
      <Label className="field-label">{label}</Label>
      <div className="choice-cards">
        {choices.map((c) => (
          <Radio key={c.id} value={c.id} isDisabled={c.isDisabled} className="choice-card">
            <span className="choice-card-title">
              {c.icon}
              {c.label}
            </span>
            <span className="choice-card-help">{c.help}</span>
          </Radio>
        ))}
      </div>
      {description && (
        <Text slot="description" className="field-description">
          {description}
        </Text>
      )}
    </RadioGroup>
  );
}
