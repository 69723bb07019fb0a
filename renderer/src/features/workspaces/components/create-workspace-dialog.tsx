import { useState } from 'react';
import { Form } from 'react-aria-components';
import { toast } from 'sonner';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { TextField } from '../../../ui/field';
import { useCreateWorkspace } from '../api/create-workspace';

export function CreateWorkspaceDialog({
  isOpen,
  onOpenChange,
  onCreated,
}: {
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated?: (id: string) => void;
}) {
  const [name, setName] = useState('');
  const create = useCreateWorkspace();
  const submit = () =>
    create.mutate(name, {
      onSuccess: (workspace) => {
        toast.success(`Workspace “${workspace.name}” created`);
        setName('');
        onOpenChange(false);
        onCreated?.(workspace.id);
      },
    });
  return (
    <Dialog title="New workspace" isOpen={isOpen} onOpenChange={onOpenChange} size="sm">
      <Form
        className="stack"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        validationErrors={create.error ? { name: create.error.message } : undefined}
      >
        <p>A workspace keeps its own assets, transcripts, publications and API keys.</p>
        <TextField
          label="Name"
          name="name"
          value={name}
          onChange={setName}
          isRequired
          autoFocus
          maxLength={80}
          placeholder="Client work"
        />
        <div className="dialog-footer">
          <Button variant="ghost" onPress={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" isDisabled={!name.trim() || create.isPending}>
            Create workspace
          </Button>
        </div>
      </Form>
    </Dialog>
  );
}
