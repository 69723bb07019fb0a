import { Link2, MailPlus, Users } from 'lucide-react';
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { toast } from 'sonner';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { CopyButton } from '../../ui/copy';
import { TextField } from '../../ui/field';
import { formatDateTime, formatRelative } from '../../ui/format';
import { Page, Section } from '../../ui/page';
import { EmptyState, ErrorState, LoadingRows } from '../../ui/states';
import { useInvite } from './api/invite';
import { useSignInLinks } from './api/list-sign-in-links';
import { useWaitlist } from './api/list-waitlist';

export default function OwnerScreen() {
  return (
    <Page
      title="Access"
      description="Folio is invite-only. People who ask to sign in wait here until you invite them."
    >
      <div className="stack-lg narrow-wide">
        <InviteForm />
        <Waitlist />
        <SignInLinks />
      </div>
    </Page>
  );
}

function InviteForm() {
  const [email, setEmail] = useState('');
  const invite = useInvite();
  return (
    <Section
      title="Invite someone"
      description="Their next sign-in is approved and gets a personal workspace."
    >
      <Form
        className="row form-row"
        onSubmit={(event) => {
          event.preventDefault();
          invite.mutate(email, {
            onSuccess: (e) => {
              setEmail('');
              toast.success(`${e.email} is invited`);
            },
          });
        }}
        validationErrors={invite.error ? { email: invite.error.message } : undefined}
      >
        <TextField
          aria-label="Email to invite"
          name="email"
          type="email"
          value={email}
          onChange={setEmail}
          placeholder="name@example.com"
          isRequired
        />
        <Button
          type="submit"
          variant="primary"
          icon={<MailPlus size={16} />}
          isDisabled={!email.trim() || invite.isPending}
        >
          Invite
        </Button>
      </Form>
    </Section>
  );
}

function Waitlist() {
  const waitlist = useWaitlist();
  const invite = useInvite();
  return (
    <Section title="Waitlist">
      {waitlist.isPending ? (
        <LoadingRows rows={3} label="Loading the waitlist" />
      ) : waitlist.isError ? (
        <ErrorState error={waitlist.error} onRetry={() => waitlist.refetch()} />
      ) : waitlist.data.length === 0 ? (
        <EmptyState icon={<Users size={20} />} title="Nobody is waiting">
          When someone who isn’t invited tries to sign in, they appear here.
        </EmptyState>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>Email</th>
              <th>Status</th>
              <th>Since</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {waitlist.data.map((entry) => (
              <tr key={entry.id}>
                <td>{entry.email}</td>
                <td>
                  {entry.status === 'invited' ? (
                    <Badge tone="success">Invited</Badge>
                  ) : (
                    <Badge tone="warning">Waiting</Badge>
                  )}
                </td>
                <td className="muted" title={formatDateTime(entry.createdAt)}>
                  {formatRelative(entry.createdAt)}
                </td>
                <td className="num">
                  {entry.status === 'pending' && (
                    <Button
                      size="sm"
                      onPress={() =>
                        invite.mutate(entry.email, {
                          onSuccess: () => toast.success(`${entry.email} is invited`),
                        })
                      }
                    >
                      Invite
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

function SignInLinks() {
  const links = useSignInLinks();
  return (
    <Section
      title="Pending sign-in links"
      description="Without a mail server, links are listed here for you to pass on. Each works once."
    >
      {links.isPending ? (
        <LoadingRows rows={2} label="Loading sign-in links" />
      ) : links.isError ? (
        <ErrorState error={links.error} onRetry={() => links.refetch()} />
      ) : links.data.length === 0 ? (
        <EmptyState icon={<Link2 size={20} />} title="No pending links" />
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>Email</th>
              <th>Expires</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {links.data.map((link) => (
              <tr key={link.url}>
                <td>{link.email}</td>
                <td className="muted">{formatRelative(link.expiresAt)}</td>
                <td className="num">
                  <CopyButton
                    text={link.url}
                    label="Copy link"
                    what={`Sign-in link for ${link.email} copied`}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}
