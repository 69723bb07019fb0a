import { Hourglass } from 'lucide-react';
import { Button } from '../../../ui/button';
import { useSignOut } from '../api/sign-out';

/** Signed in but not approved (README.md, invite-only sign-in): nothing to do but wait for an invitation. */
export function WaitingScreen({ email }: { email: string }) {
  const signOut = useSignOut();
  return (
    <main className="gate">
      <div className="gate-card" role="status">
        <div className="empty-icon" aria-hidden>
          <Hourglass size={20} />
        </div>
        <h1 className="gate-title">You’re on the waitlist</h1>
        <p className="muted">
          <strong className="gate-email">{email}</strong> is signed in, but this Folio is invite-only. The
          owner has been told you asked; once they invite you, sign in again with a new link.
        </p>
        <Button variant="secondary" onPress={() => signOut.mutate()}>
          Sign out
        </Button>
      </div>
    </main>
  );
}
