import { useState } from 'react';
import { Form } from 'react-aria-components';
import { toast } from 'sonner';
import { Button } from '../../../ui/button';
import { TextField } from '../../../ui/field';
import { useImportModel } from '../api/import-model';

/** Where downloads cannot reach the network: a ggml file already on this machine. */
export function ImportModelForm() {
  const [path, setPath] = useState('');
  const imported = useImportModel();
  return (
    <Form
      className="row form-row"
      onSubmit={(event) => {
        event.preventDefault();
        imported.mutate(
          { path },
          {
            onSuccess: (m) => {
              setPath('');
              toast.success(`Installed ${m.file}`);
            },
          },
        );
      }}
      validationErrors={imported.error ? { path: imported.error.message } : undefined}
    >
      <TextField
        aria-label="Path of a model file"
        name="path"
        value={path}
        onChange={setPath}
        placeholder="/home/me/Downloads/ggml-base.en.bin"
        mono
        isRequired
      />
      <Button type="submit" isDisabled={!path.trim() || imported.isPending}>
        {imported.isPending ? 'Importing…' : 'Import'}
      </Button>
    </Form>
  );
}
