import { useState } from 'react';
import { CheckboxGroup, Form, Label, Text } from 'react-aria-components';
import type { ServiceName } from '../../../api/types';
import { Button } from '../../../ui/button';
import { Checkbox, TextField } from '../../../ui/field';
import { Skeleton } from '../../../ui/states';
import type { KeyInput } from '../api/create-key';
import { useServices } from '../api/list-services';

/** Name and one checkbox per service from GET /api/v1/services. */
export function KeyForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
  isPending,
  error,
}: {
  initial?: KeyInput;
  submitLabel: string;
  onSubmit: (input: KeyInput) => void;
  onCancel: () => void;
  isPending: boolean;
  error?: Error | null;
}) {
  const services = useServices();
  const [name, setName] = useState(initial?.name ?? '');
  const [chosen, setChosen] = useState<string[]>(initial?.services ?? ['assets', 'transcription']);
  return (
    <Form
      className="stack"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit({ name, services: chosen as ServiceName[] });
      }}
      validationErrors={error ? { name: error.message } : undefined}
    >
      <TextField
        label="Name"
        name="name"
        value={name}
        onChange={setName}
        isRequired
        autoFocus
        maxLength={100}
        placeholder="My agent"
        description="Where it is used, so you recognise it later."
      />
      <CheckboxGroup className="field service-list" value={chosen} onChange={setChosen}>
        <Label className="field-label">Services</Label>
        <Text slot="description" className="field-description">
          The key can call only these. You can change them later; the secret stays the same.
        </Text>
        {services.isPending ? (
          <Skeleton height={120} />
        ) : (
          services.data?.map((s) => (
            <Checkbox key={s.name} value={s.name}>
              <span className="service-name">{s.name}</span>
              <span className="field-description">{s.description}</span>
            </Checkbox>
          ))
        )}
      </CheckboxGroup>
      <div className="dialog-footer">
        <Button variant="ghost" onPress={onCancel}>
          Cancel
        </Button>
        <Button variant="primary" type="submit" isDisabled={!name.trim() || isPending}>
          {submitLabel}
        </Button>
      </div>
    </Form>
  );
}
