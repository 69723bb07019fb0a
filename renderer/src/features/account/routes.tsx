import { LogOut } from 'lucide-react';
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { toast } from 'sonner';
import { useMe } from '../../api/me';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/field';
import { formatDateTime } from '../../ui/format';
import { Page, Section } from '../../ui/page';
import { Properties } from '../../ui/side-panel';
import { ErrorState, LoadingRows } from '../../ui/states';
import { useSignOut } from './api/sign-out';
import { useUpdateProfile } from './api/update-profile';

export default function ProfileScreen() {
  const me = useMe();
  const signOut = useSignOut();
  if (me.isPending) return <LoadingRows />;
  if (me.isError) return <ErrorState error={me.error} onRetry={() => me.refetch()} />;
  if (!me.data.isApproved) return null;
  const { profile } = me.data;
  return (
    <Page
      title="Profile"
      description="How you appear in Folio. Your email is what you sign in with."
      actions={
        <Button icon={<LogOut size={16} />} onPress={() => signOut.mutate()}>
          Sign out
        </Button>
      }
    >
      <div className="narrow stack-lg">
        <Section title="Name">
          <NameForm initial={profile.name} />
        </Section>
        <Section title="Account">
          <Properties
            items={[
              ['Email', profile.email],
              [
                'Role',
                profile.isInstanceOwner ? (
                  <Badge key="role" tone="accent">
                    Owner of this Folio
                  </Badge>
                ) : (
                  <Badge key="role">Member</Badge>
                ),
              ],
              ['Member since', formatDateTime(profile.createdAt)],
            ]}
          />
        </Section>
      </div>
    </Page>
  );
}

function NameForm({ initial }: { initial: string }) {
  const [name, setName] = useState(initial);
  const update = useUpdateProfile();
  return (
    <Form
      className="row form-row"
      onSubmit={(event) => {
        event.preventDefault();
        update.mutate({ name }, { onSuccess: () => toast.success('Profile saved') });
      }}
      validationErrors={update.error ? { name: update.error.message } : undefined}
    >
      <TextField aria-label="Name" name="name" value={name} onChange={setName} isRequired maxLength={100} />
      <Button
        type="submit"
        variant="primary"
        isDisabled={!name.trim() || name === initial || update.isPending}
      >
        Save
      </Button>
    </Form>
  );
}
